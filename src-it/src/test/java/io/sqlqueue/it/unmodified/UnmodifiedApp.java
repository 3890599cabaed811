package io.sqlqueue.it.unmodified;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.TargetServer;
import io.sqlqueue.it.harness.TestDatabase;
import io.sqlqueue.it.harness.WebXml;
import java.io.File;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A JMS application written for the server's own broker ({@link OrderListener}, {@link OrderSender}),
 * and the two configurations it is deployed with: {@link #onBroker} (the server's broker) and
 * {@link #onAdapter} (this adapter; only descriptors differ), with the one check both must pass.
 */
final class UnmodifiedApp {

    /** The names the application's classes use; each configuration binds them. */
    static final String QUEUE = "java:app/jms/orders", FACTORY = "java:app/jms/orderFactory",
            DS = "java:global/jdbc/unmodified";
    /** The queue's name at the provider: a table here, a broker queue there. */
    static final String QUEUE_NAME = "unmodified_orders";

    private UnmodifiedApp() {
    }

    /** The application's classes (and the test class) with the run's JDBC drivers; no descriptors. */
    static WebArchive classes(String warName, Class<?> testClass) {
        return ShrinkWrap.create(WebArchive.class, warName)
                .addClasses(UnmodifiedApp.class, OrderListener.class, OrderSender.class, testClass,
                        io.sqlqueue.it.harness.Await.class)
                .addAsLibraries(new File(System.getProperty("it.h2.jar")), new File(System.getProperty("it.pg.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml");
    }

    /**
     * The server's own broker, the queue as a Jakarta EE JMS destination definition and the bean on
     * the server's default JMS adapter. WildFly's Artemis (standalone-full): the server's factory
     * java:/JmsXA under the application's name. Payara Server's OpenMQ (embedded in the domain): a
     * factory defined by the application, declared also at {@code <name>__pm}, where Payara's
     * injected JMSContext looks it up.
     */
    static WebArchive onBroker(WebArchive war) {
        String factory = TargetServer.current() == TargetServer.WILDFLY
                // the server's transactional factory under the application's name (a factory defined by
                // <jms-connection-factory> would need a broker user: AMQ229031 with none)
                ? "<resource-ref><res-ref-name>" + FACTORY + "</res-ref-name><res-type>jakarta.jms.ConnectionFactory"
                        + "</res-type><lookup-name>java:/JmsXA</lookup-name></resource-ref>"
                : jmsConnectionFactory(FACTORY) + jmsConnectionFactory(FACTORY + "__pm");
        return war.addAsWebInfResource(new StringAsset("<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\""
                + " version=\"6.0\">" + TestDatabase.forRun("unmodified").dataSourceXml(DS, 16) + factory
                + "<jms-destination><name>" + QUEUE + "</name><interface-name>jakarta.jms.Queue</interface-name>"
                + "<destination-name>" + QUEUE_NAME + "</destination-name></jms-destination></web-app>"), "web.xml");
    }

    private static String jmsConnectionFactory(String name) {
        return "<jms-connection-factory><name>" + name + "</name>"
                + "<interface-name>jakarta.jms.ConnectionFactory</interface-name></jms-connection-factory>";
    }

    /**
     * This adapter: the factory and the queue as the adapter's connection factory and administered
     * object, the bean bound to the adapter (glassfish-ejb-jar.xml on Payara, jboss-ejb3.xml on
     * WildFly) with its database as an activation property in ejb-jar.xml.
     */
    static WebArchive onAdapter(WebArchive war) {
        WebXml webXml = new WebXml(war.getName())
                .dataSource(DS, TestDatabase.forRun("unmodified"), 16)
                .connectionFactory(FACTORY, "jakarta.jms.ConnectionFactory", "NoTransaction", 8,
                        Map.of("dataSourceJndiName", DS))
                .administeredObject(QUEUE, jakarta.jms.Queue.class, "io.sqlqueue.jms.JmsQueue", QUEUE_NAME);
        if (TargetServer.current() != TargetServer.WILDFLY) {
            // Payara's injected JMSContext looks the factory up at <name>__pm (the name its own JMS
            // resources get a second binding at), so the same factory is declared there too
            webXml.connectionFactory(FACTORY + "__pm", "jakarta.jms.ConnectionFactory", "NoTransaction", 8,
                    Map.of("dataSourceJndiName", DS));
        }
        webXml.addTo(war);
        war.addAsWebInfResource(new StringAsset("<ejb-jar xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\">"
                + "<enterprise-beans><message-driven><ejb-name>OrderListener</ejb-name><activation-config>"
                + property("dataSourceJndiName", DS) + property("pollInterval", "20")
                + property("retryBackoff", "0") + property("maxRetryBackoff", "0")
                + "</activation-config></message-driven></enterprise-beans></ejb-jar>"), "ejb-jar.xml");
        TargetServer server = TargetServer.current();
        if (server != TargetServer.WILDFLY) { // (WildFly: TargetServer.deployable's jboss-ejb3.xml binds it)
            String adapter = (server == TargetServer.PAYARA_SERVER ? TargetServer.applicationName(war) : "")
                    + server.resourceAdapter(TargetServer.applicationName(war));
            war.addAsWebInfResource(new StringAsset("<glassfish-ejb-jar><enterprise-beans><ejb><ejb-name>"
                    + "OrderListener</ejb-name><mdb-resource-adapter><resource-adapter-mid>" + adapter
                    + "</resource-adapter-mid></mdb-resource-adapter></ejb></enterprise-beans></glassfish-ejb-jar>"),
                    "glassfish-ejb-jar.xml");
        }
        return war;
    }

    private static String property(String name, String value) {
        return "<activation-config-property><activation-config-property-name>" + name
                + "</activation-config-property-name><activation-config-property-value>" + value
                + "</activation-config-property-value></activation-config-property>";
    }

    /** The bean's table, empty. Run inside the deployment. */
    static DataSource freshTable() throws Exception {
        DataSource ds = InitialContext.doLookup(DS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS received_orders (message_id VARCHAR(200), body VARCHAR(100),"
                    + " redelivered BOOLEAN, delivery_count INT)");
            s.execute("DELETE FROM received_orders");
        }
        return ds;
    }

    /**
     * Sends 30 messages through the application's sender in one transaction; the bean must receive
     * each once with its own row, every third failing once and redelivered with JMSRedelivered and
     * JMSXDeliveryCount 2; counted in SQL. Run inside the deployment.
     */
    static void sendAndCheck(DataSource ds) throws Exception {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            texts.add((i % 3 == 0 ? "flaky" : "fine") + i);
        }
        OrderSender sender = InitialContext.doLookup("java:module/OrderSender");
        sender.send(texts);
        Await.until("30 orders received", Duration.ofMinutes(1),
                () -> count(ds, "SELECT COUNT(DISTINCT body) FROM received_orders") == 30);
        assertEquals(30, count(ds, "SELECT COUNT(*) FROM received_orders"),
                "each committed once: the failed deliveries' rows rolled back with them");
        assertEquals(30, count(ds, "SELECT COUNT(DISTINCT message_id) FROM received_orders"), "30 message ids");
        assertEquals(10, count(ds, "SELECT COUNT(*) FROM received_orders WHERE body LIKE 'flaky%' AND redelivered"
                + " AND delivery_count = 2"), "every third redelivered: JMSRedelivered, JMSXDeliveryCount 2");
        assertEquals(20, count(ds, "SELECT COUNT(*) FROM received_orders WHERE body LIKE 'fine%' AND NOT redelivered"
                + " AND delivery_count = 1"), "the others on their first delivery");
    }

    static long count(DataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
