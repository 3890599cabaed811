package io.sqlqueue.it.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.engine.DriverDataSources;
import io.sqlqueue.engine.QueueTable;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import java.io.File;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The enqueue and the application's own write in one XA transaction on PostgreSQL, in Payara
 * Micro: both commit or neither does. Runs when SQLQUEUE_PG_URL is set; the resources are
 * declared in a web.xml written from it when the test archive is built.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIfEnvironmentVariable(named = "SQLQUEUE_PG_URL", matches = "jdbc:postgresql:.*",
        disabledReason = "SQLQUEUE_PG_URL is not set: PostgreSQL XA tests skipped")
class PostgresXaIT {

    private static final String QUEUE = "xa_orders_queue";
    private static final String FACTORY_SESSIONS = "sqlqueue-it-factory";

    @Deployment
    static WebArchive deployment() {
        String url = System.getenv("SQLQUEUE_PG_URL");
        String user = System.getenv("SQLQUEUE_PG_USER");
        String password = System.getenv("SQLQUEUE_PG_PASSWORD");
        // The factory's own sessions are named, so that a test can kill exactly those.
        String factoryUrl = url == null ? null : url + (url.contains("?") ? "&" : "?") + "ApplicationName=" + FACTORY_SESSIONS;
        String webXml = url == null ? "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\"/>"
                : "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">"
                + "<data-source><name>" + XaOrderBean.DS + "</name>"
                + "<class-name>org.postgresql.xa.PGXADataSource</class-name>"
                + "<url>" + url + "</url><user>" + user + "</user><password>" + password + "</password>"
                + "<transactional>true</transactional><max-pool-size>8</max-pool-size></data-source>"
                + "<connection-factory><name>" + XaOrderBean.QUEUES + "</name>"
                + "<interface-name>io.sqlqueue.api.QueueConnectionFactory</interface-name>"
                + "<resource-adapter>sqlqueue-adapter</resource-adapter>"
                + "<max-pool-size>8</max-pool-size><transaction-support>XATransaction</transaction-support>"
                + "<property><name>jdbcUrl</name><value>" + factoryUrl + "</value></property>"
                + "<property><name>user</name><value>" + user + "</value></property>"
                + "<property><name>password</name><value>" + password + "</value></property>"
                + "</connection-factory></web-app>";
        return ShrinkWrap.create(WebArchive.class, "pg-xa-it.war")
                .addClass(XaOrderBean.class)
                .addAsLibraries(new File(System.getProperty("it.pg.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml")
                .addAsWebInfResource(new StringAsset(webXml), "web.xml");
    }

    @EJB
    private XaOrderBean bean;

    private static long count(String sql) throws Exception {
        DataSource ds = InitialContext.doLookup(XaOrderBean.DS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void theEnqueueAndTheBusinessWriteCommitAndRollBackTogether() throws Exception {
        DataSource ds = InitialContext.doLookup(XaOrderBean.DS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS xa_orders (id BIGINT PRIMARY KEY)");
            s.execute("DELETE FROM xa_orders");
            QueueTable.open(c, QUEUE).createIfMissing(c);
            s.execute("DELETE FROM \"" + QUEUE + "\"");
        }

        bean.storeAndQueue(QUEUE, 1, false, false);
        assertThrows(EJBException.class, () -> bean.storeAndQueue(QUEUE, 2, true, false));
        bean.storeAndQueue(QUEUE, 3, false, true);

        assertEquals(1, count("SELECT COUNT(*) FROM xa_orders"), "only the committed business row");
        assertEquals(1, count("SELECT COUNT(*) FROM xa_orders WHERE id = 1"));
        assertEquals(1, count("SELECT COUNT(*) FROM \"" + QUEUE + "\""), "only the committed message");
        assertEquals(1, count("SELECT COUNT(*) FROM \"" + QUEUE + "\" WHERE convert_from(body, 'UTF8') = '{\"orderId\":1}'"));
        assertEquals(0, count("SELECT COUNT(*) FROM pg_prepared_xacts"), "no transaction left in doubt");
    }

    @Test
    void killedSessionsFailAtMostOneSendAndAreNeverHandedOutAgain() throws Exception {
        DataSource ds = InitialContext.doLookup(XaOrderBean.DS);
        try (Connection c = ds.getConnection()) {
            QueueTable.open(c, QUEUE).createIfMissing(c);
        }
        for (int i = 0; i < 5; i++) {
            bean.send(QUEUE, "warm-up " + i); // the pool holds some connections now
        }
        long killed;
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '"
                        + FACTORY_SESSIONS + "'")) {
            rs.next();
            killed = rs.getLong(1);
        }
        assertTrue(killed > 0, "the factory's sessions were terminated");

        List<Integer> failed = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            try {
                bean.send(QUEUE, "after " + i);
            } catch (EJBException e) {
                failed.add(i);
            }
        }
        assertTrue(failed.isEmpty() || failed.equals(List.of(0)),
                "at most the first send after the kill fails; failed: " + failed + " of 10, " + killed + " sessions killed");
    }
}
