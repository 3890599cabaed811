package io.sqlqueue.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.lifecycle.topic.BillingApp;
import io.sqlqueue.it.lifecycle.topic.BillingDatabase;
import io.sqlqueue.it.lifecycle.topic.RefundsApp;
import io.sqlqueue.it.lifecycle.topic.RefundsDatabase;
import io.sqlqueue.it.lifecycle.topic.TopicDeliveries;
import java.io.File;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;

/**
 * A topic with two applications subscribed, each deployed on its own in one Payara Micro (forked,
 * see {@link MicroProcess}) on the test's H2 TCP database: the billing application takes every
 * message, the refunds application, through a filter, only refunds and chargebacks. Each receives
 * every message it subscribed to exactly once, a rolled-back publish reaches neither, and a
 * subscription outlives its application: what is published while the refunds application is
 * undeployed waits in its queue and is delivered once it is deployed again. Counted in SQL.
 */
class TwoApplicationsTopicIT {

    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    @Test
    void eachApplicationReceivesWhatItSubscribedToOnceAndItsSubscriptionOutlivesAnUndeployment() throws Exception {
        File microJar = LifecycleIT.file("it.micro.jar", "Payara Micro");
        File rar = LifecycleIT.file("it.rar", "the adapter's .rar");
        File tmp = MicroProcess.workDirectory("topic-micro");
        File billingWar = MicroProcess.exportWar(tmp, "billing", BillingApp.class, BillingDatabase.class,
                TopicDeliveries.class);
        File refundsWar = MicroProcess.exportWar(tmp, "refunds", RefundsApp.class, RefundsDatabase.class,
                TopicDeliveries.class);

        Server h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        String url = "jdbc:h2:tcp://127.0.0.1:" + h2.getPort() + "/mem:topic" + System.nanoTime()
                + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
        try (Connection db = DriverManager.getConnection(url, "sa", "sa");
                MicroProcess micro = MicroProcess.start(microJar, tmp, Map.of("SQLQUEUE_TOPIC_URL", url), List.of(),
                        BOOT_TIMEOUT)) {
            try (Statement s = db.createStatement()) {
                s.execute(TopicDeliveries.CREATE_TABLE);
            }
            micro.deployAdapter(rar); // first: a WAR deployed before the adapter never activates its bean
            micro.deployWar("billing", billingWar);
            micro.deployWar("refunds", refundsWar);
            Topic topic = Topic.open(db, TopicDeliveries.TOPIC);
            Await.until("both applications subscribed", PATIENCE, () -> subscriptions(db, topic) == 2);

            db.setAutoCommit(false);
            topic.publish(db, event("refund", "rolled back"));
            db.rollback();
            for (int i = 0; i < 60; i++) {
                String type = List.of("refund", "order", "chargeback", "order").get(i % 4);
                assertEquals(i % 2 == 0 ? 2 : 1, topic.publish(db, event(type, type + " " + i)).size());
            }
            db.commit();
            db.setAutoCommit(true);
            Await.until("60 messages to billing and 30 to refunds", PATIENCE,
                    () -> delivered(db, "billing") >= 60 && delivered(db, "refunds") >= 30);
            assertEachOnce(db, "billing", 60);
            assertEachOnce(db, "refunds", 30);
            assertEquals(0, count(db, "SELECT COUNT(*) FROM topic_deliveries WHERE application = 'refunds'"
                    + " AND body NOT LIKE 'refund %' AND body NOT LIKE 'chargeback %'"), "only what its filter takes");
            assertEquals(0, count(db, "SELECT COUNT(*) FROM topic_deliveries WHERE body = 'rolled back'"));

            micro.undeploy("refunds");
            for (int i = 60; i < 70; i++) {
                assertEquals(2, topic.publish(db, event("refund", "refund " + i)).size(), "the subscription stays");
            }
            QueueTable refunds = QueueTable.open(db, topic.queueOf("refunds").toString());
            Await.until("billing has the 10 published meanwhile", PATIENCE, () -> delivered(db, "billing") >= 70);
            assertEquals(10, refunds.stats(db).ready(), "kept for the undeployed application");
            assertEquals(30, delivered(db, "refunds"));

            micro.deployWar("refunds", refundsWar);
            Await.until("the refunds application caught up", PATIENCE, () -> delivered(db, "refunds") >= 40);
            assertEachOnce(db, "billing", 70);
            assertEachOnce(db, "refunds", 40);
            for (String subscription : List.of("billing", "refunds")) {
                QueueTable q = QueueTable.open(db, topic.queueOf(subscription).toString());
                Await.until(subscription + "'s queue empty", PATIENCE, () -> q.stats(db).ready() == 0
                        && q.stats(db).leased() == 0);
                assertEquals(0, q.stats(db).deadLettered(), "nothing dead-lettered in " + q.name());
            }
        } finally {
            h2.stop();
        }
    }

    private static OutgoingMessage event(String type, String body) {
        return OutgoingMessage.text(body).header("type", type).build();
    }

    private static int subscriptions(Connection db, Topic topic) {
        try {
            return topic.subscriptions(db).size();
        } catch (SQLException notYet) {
            return 0; // no activation has made the subscriptions table yet
        }
    }

    private static void assertEachOnce(Connection db, String application, int expected) throws SQLException {
        String where = " FROM topic_deliveries WHERE application = '" + application + "'";
        assertEquals(expected, count(db, "SELECT COUNT(DISTINCT body)" + where), application + ": every message");
        assertEquals(expected, count(db, "SELECT COUNT(*)" + where), application + ": each once");
    }

    private static long delivered(Connection db, String application) throws SQLException {
        return count(db, "SELECT COUNT(*) FROM topic_deliveries WHERE application = '" + application + "'");
    }

    private static long count(Connection db, String sql) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }
}
