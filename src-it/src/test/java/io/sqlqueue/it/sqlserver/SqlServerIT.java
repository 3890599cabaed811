package io.sqlqueue.it.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.CompletionJournal;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.TestDatabase;
import io.sqlqueue.it.harness.WebXml;
import io.sqlqueue.it.outbound.Sender;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import java.io.File;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
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
 * SQL Server in Payara Micro through the adapter's own connections ({@code jdbcUrl}) with local
 * transactions, as on a SQL Server without MS DTC: a LocalTransaction connection factory enqueues
 * inside the caller's transaction, and a message-driven bean consumes with {@code useXA=false}.
 * The tables are counted through a JDBC resource on {@code SQLServerDataSource}. Runs in the
 * it-sqlserver execution (SQLQUEUE_MSSQL_URL set, Babelfish in CI); SampleIT covers delivery
 * through {@code dataSourceJndiName} there.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIfEnvironmentVariable(named = "SQLQUEUE_IT_DB", matches = "sqlserver",
        disabledReason = "runs in the it-sqlserver execution only (SQLQUEUE_MSSQL_URL unset, or another database)")
class SqlServerIT {

    static final String QUEUE = "mssql_local_q";
    private static final String LOCAL = "java:app/queue/mssql-local";
    private static final String DS = "java:app/jdbc/mssql";

    @Deployment
    static WebArchive deployment() {
        TestDatabase db = TestDatabase.forRun("unused");
        WebArchive war = ShrinkWrap.create(WebArchive.class, "sqlserver-it.war")
                .addClasses(LocalConsumer.class, Sender.class, Await.class)
                .addAsLibraries(new File(System.getProperty("it.mssql.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml");
        Map<String, String> own = new TreeMap<>(Map.of("jdbcUrl", db.url(), "user", db.user(),
                "password", db.password(), "useXA", "false"));
        new WebXml(war.getName()).dataSource(DS, db, 8)
                .connectionFactory(LOCAL, "LocalTransaction", 8, own)
                .addTo(war);
        Map<String, String> activation = new TreeMap<>(own);
        activation.putAll(Map.of("queue", QUEUE, "journal", "true", "maxConcurrency", "4", "maxAttempts", "3",
                "retryBackoff", "0", "maxRetryBackoff", "0", "pollInterval", "20"));
        StringBuilder config = new StringBuilder();
        activation.forEach((name, value) -> config.append("<activation-config-property><activation-config-property-name>")
                .append(name).append("</activation-config-property-name><activation-config-property-value>")
                .append(TestDatabase.xml(value)).append("</activation-config-property-value></activation-config-property>"));
        return war.addAsWebInfResource(new StringAsset("<ejb-jar xmlns=\"https://jakarta.ee/xml/ns/jakartaee\""
                + " version=\"4.0\"><enterprise-beans><message-driven><ejb-name>LocalConsumer</ejb-name>"
                + "<ejb-class>" + LocalConsumer.class.getName() + "</ejb-class>"
                + "<messaging-type>io.sqlqueue.api.QueueListener</messaging-type>"
                + "<activation-config>" + config + "</activation-config></message-driven></enterprise-beans></ejb-jar>"),
                "ejb-jar.xml");
    }

    @EJB
    private Sender sender;

    private static long count(String sql) throws Exception {
        DataSource ds = InitialContext.doLookup(DS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static final String COMPLETED = "SELECT COUNT(*) FROM [" + QUEUE + "_journal] WHERE outcome = 'completed'";
    private static final String POISONED = "SELECT COUNT(*) FROM [" + QUEUE + "_dlq] WHERE attempts = 3"
            + " AND last_error LIKE '%poison refused%'";
    private static final String QUEUED = "SELECT COUNT(*) FROM [" + QUEUE + "]";

    /**
     * 200 committed sends, 2 rolled back (an exception, setRollbackOnly) and one poison message:
     * each committed message completes once in the journal, the poison one is dead-lettered after
     * 3 attempts with the bean's error, the rolled-back ones appear nowhere.
     */
    @Test
    void localTransactionsEnqueueAndDeliverEachCommittedMessageOnce() throws Exception {
        DataSource ds = InitialContext.doLookup(DS);
        try (Connection c = ds.getConnection()) { // the activation creates them too; make sure before counting
            QueueTable queue = QueueTable.open(c, QUEUE);
            queue.createIfMissing(c);
            new CompletionJournal(queue).createIfMissing(c);
        }
        long completedBefore = count(COMPLETED);
        long poisonedBefore = count(POISONED);

        for (int i = 0; i < 200; i++) {
            sender.send(LOCAL, QUEUE, OutgoingMessage.text("m" + i).build());
        }
        EJBException thrown = assertThrows(EJBException.class, () -> sender.sendThenThrow(LOCAL, QUEUE));
        assertEquals(IllegalStateException.class, thrown.getCause().getClass(), String.valueOf(thrown));
        sender.sendThenSetRollbackOnly(LOCAL, QUEUE);
        sender.send(LOCAL, QUEUE, OutgoingMessage.text("poison").build());

        Await.until("200 completed, 1 dead-lettered and the queue empty", Duration.ofMinutes(2),
                () -> count(COMPLETED) >= completedBefore + 200 && count(POISONED) == poisonedBefore + 1 && count(QUEUED) == 0);
        assertEquals(completedBefore + 200, count(COMPLETED), "each committed message completed once");
        assertEquals(count(COMPLETED), count("SELECT COUNT(DISTINCT message_id) FROM [" + QUEUE + "_journal]"
                + " WHERE outcome = 'completed'"), "no message completed twice");
        assertEquals(0, count("SELECT COUNT(*) FROM [" + QUEUE + "_journal] j JOIN [" + QUEUE + "_dlq] d"
                + " ON d.id = j.message_id WHERE j.outcome = 'completed'"), "the dead-lettered message never completed");
    }
}
