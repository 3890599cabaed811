package io.sqlqueue.it.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.TargetServer;
import io.sqlqueue.it.harness.TestDatabase;
import io.sqlqueue.it.harness.WebXml;
import io.sqlqueue.it.lifecycle.topic.BillingApp;
import io.sqlqueue.it.lifecycle.topic.BillingDatabase;
import io.sqlqueue.it.lifecycle.topic.RefundsApp;
import io.sqlqueue.it.lifecycle.topic.RefundsDatabase;
import io.sqlqueue.it.lifecycle.topic.TopicDeliveries;
import java.io.File;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A topic in a server, on the run's database (H2 or PostgreSQL): the two subscribing beans of
 * {@code TwoApplicationsTopicIT}, here in one application, each subscribe by activation
 * properties (one with a filter); every published message reaches each subscription it matches
 * exactly once, and a publish that rolls back reaches none. Counted in SQL.
 */
@ExtendWith(ArquillianExtension.class)
class TopicIT {

    private static final Duration PATIENCE = Duration.ofMinutes(1);

    @Deployment
    static Archive<?> deployment() {
        WebArchive war = ShrinkWrap.create(WebArchive.class, "topic-it.war")
                .addClasses(TopicDeliveries.class, BillingApp.class, RefundsApp.class, Await.class)
                .addAsLibraries(new File(System.getProperty("it.h2.jar")), new File(System.getProperty("it.pg.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml");
        // the beans' two data sources (their @DataSourceDefinition classes stay out), on one database
        TestDatabase db = TestDatabase.forRun("topic");
        new WebXml(war.getName()).dataSource(BillingDatabase.JNDI_NAME, db, 8)
                .dataSource(RefundsDatabase.JNDI_NAME, db, 8).addTo(war);
        return TargetServer.current().deployable(TopicIT.class, war);
    }

    @Test
    void eachSubscriptionGetsEveryMessageItsFilterTakesOnceAndARolledBackPublishNone() throws Exception {
        DataSource ds = InitialContext.doLookup(BillingDatabase.JNDI_NAME);
        Topic topic;
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute(TopicDeliveries.CREATE_TABLE);
            s.execute("DELETE FROM topic_deliveries"); // a database kept from an earlier run (PostgreSQL)
            topic = Topic.open(c, TopicDeliveries.TOPIC);
        }
        Await.until("the beans' activations made both subscriptions", PATIENCE, () -> {
            try (Connection c = ds.getConnection()) {
                return topic.subscriptions(c).size() == 2;
            } catch (SQLException notYet) {
                return false; // the subscriptions table is not there yet
            }
        });
        List<String> refunds = new ArrayList<>();
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            topic.publish(c, OutgoingMessage.text("rolled back").header("type", "refund").build());
            c.rollback();
            for (int i = 0; i < 30; i++) {
                String type = i % 3 == 0 ? "refund" : "order";
                assertEquals(type.equals("refund") ? 2 : 1, topic.publish(c,
                        OutgoingMessage.text(type + " " + i).header("type", type).build()).size());
                if (type.equals("refund")) {
                    refunds.add(type + " " + i);
                }
            }
            c.commit();
        }
        Await.until("every copy delivered", PATIENCE,
                () -> count(ds, "SELECT COUNT(*) FROM topic_deliveries") >= 30 + refunds.size());
        assertEquals(30, count(ds, "SELECT COUNT(DISTINCT body) FROM topic_deliveries WHERE application = 'billing'"));
        assertEquals(30, count(ds, "SELECT COUNT(*) FROM topic_deliveries WHERE application = 'billing'"), "each once");
        assertEquals(refunds.size(), count(ds, "SELECT COUNT(*) FROM topic_deliveries WHERE application = 'refunds'"
                + " AND body LIKE 'refund %'"));
        assertEquals(refunds.size(), count(ds, "SELECT COUNT(*) FROM topic_deliveries WHERE application = 'refunds'"),
                "only its matches, each once");
        assertEquals(0, count(ds, "SELECT COUNT(*) FROM topic_deliveries WHERE body = 'rolled back'"));
    }

    private static long count(DataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
