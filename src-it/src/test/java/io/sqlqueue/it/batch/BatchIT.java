package io.sqlqueue.it.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.batch.QueueItemReader;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.TargetServer;
import io.sqlqueue.it.harness.TestDatabase;
import io.sqlqueue.it.harness.WebXml;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.BatchStatus;
import java.io.File;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jakarta Batch over queue tables, in the server's batch runtime (JBatch in Payara, JBeret in
 * WildFly): {@link QueueItemReader} drains a queue into a table and {@code QueueItemWriter} fills
 * one, each exactly once per committed chunk, a failed job restarted to completion; a reader and a
 * message-driven bean compete on one queue. Counted in SQL. On H2 and PostgreSQL in both servers,
 * and on SQL Server (Babelfish in CI) in WildFly only: Payara's batch runtime needs an XA data
 * source here, which Babelfish lacks.
 */
@ExtendWith(ArquillianExtension.class)
class BatchIT {

    private static final String JOB_NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    /** Drains #{jobParameters['queue']} into batch_rows through RowWriter. */
    private static final String DRAIN_JOB = "<job id=\"sqlqueue-drain\" " + JOB_NS + "><step id=\"drain\">"
            + "<chunk item-count=\"100\"><reader ref=\"io.sqlqueue.batch.QueueItemReader\"><properties>"
            + "<property name=\"queue\" value=\"#{jobParameters['queue']}\"/>"
            + "<property name=\"dataSource\" value=\"" + BatchRows.DS + "\"/>"
            + "<property name=\"claimSize\" value=\"100\"/>"
            + "<property name=\"idleTimeout\" value=\"#{jobParameters['idleTimeout']}\"/>"
            + "</properties></reader><writer ref=\"io.sqlqueue.it.batch.RowWriter\"><properties>"
            + "<property name=\"failAt\" value=\"#{jobParameters['failAt']}\"/>"
            + "</properties></writer></chunk></step></job>";

    /** Writes #{jobParameters['count']} texts into #{jobParameters['queue']} through QueueItemWriter. */
    private static final String FILL_JOB = "<job id=\"sqlqueue-fill\" " + JOB_NS + "><step id=\"fill\">"
            + "<chunk item-count=\"100\"><reader ref=\"io.sqlqueue.it.batch.NumberReader\"><properties>"
            + "<property name=\"count\" value=\"#{jobParameters['count']}\"/>"
            + "<property name=\"prefix\" value=\"#{jobParameters['prefix']}\"/>"
            + "</properties></reader><processor ref=\"io.sqlqueue.it.batch.FailingProcessor\"><properties>"
            + "<property name=\"failAt\" value=\"#{jobParameters['failAt']}\"/>"
            + "</properties></processor><writer ref=\"io.sqlqueue.batch.QueueItemWriter\"><properties>"
            + "<property name=\"queue\" value=\"#{jobParameters['queue']}\"/>"
            + "<property name=\"dataSource\" value=\"#{jobParameters['dataSource']}\"/>"
            + "<property name=\"connectionFactory\" value=\"#{jobParameters['connectionFactory']}\"/>"
            + "</properties></writer></chunk></step></job>";

    /** A factory whose connections go through the job's JDBC resource, so they join the chunk's transaction. */
    private static final String FACTORY = "java:app/queue/batch";

    @Deployment
    static Archive<?> deployment() {
        WebArchive war = ShrinkWrap.create(WebArchive.class, "batch-it.war")
                .addClasses(BatchRows.class, RowWriter.class, NumberReader.class, FailingProcessor.class,
                        BatchConsumer.class, Await.class, TestDatabase.class) // TestDatabase: the condition below
                .addAsLibraries(new File(System.getProperty("it.h2.jar")), new File(System.getProperty("it.pg.jar")),
                        new File(System.getProperty("it.mssql.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml")
                .addAsResource(new StringAsset(DRAIN_JOB), "META-INF/batch-jobs/sqlqueue-drain.xml")
                .addAsResource(new StringAsset(FILL_JOB), "META-INF/batch-jobs/sqlqueue-fill.xml");
        // XA on Payara, whose batch runtime's checkpoints join the chunk's transaction through a JDBC
        // resource of its own; WildFly's JBeret keeps its job repository out of it
        TestDatabase database = TestDatabase.forRun("batch");
        new WebXml(war.getName()).dataSource(BatchRows.DS,
                        TargetServer.current() == TargetServer.WILDFLY ? database : database.withXaDataSource(), 16)
                .connectionFactory(FACTORY, "NoTransaction", 8, Map.of("dataSourceJndiName", BatchRows.DS))
                .addTo(war);
        return TargetServer.current().deployable(BatchIT.class, war);
    }

    private String queue;

    @BeforeEach
    void tables() throws Exception {
        queue = "bq_" + Long.toHexString(System.nanoTime());
        try (Connection c = BatchRows.dataSource().getConnection()) {
            BatchRows.createTable(c);
            QueueTable.open(c, queue).createIfMissing(c);
            QueueTable.open(c, BatchRows.MDB_QUEUE).createIfMissing(c);
        }
    }

    private static long count(String sql) throws Exception {
        try (Connection c = BatchRows.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long queued(String queue) throws Exception {
        return count("SELECT COUNT(*) FROM \"" + queue + "\"");
    }

    private static void send(String queue, String prefix, int n) throws Exception {
        List<OutgoingMessage> messages = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            messages.add(OutgoingMessage.text(prefix + i).build());
        }
        try (Connection c = BatchRows.dataSource().getConnection()) {
            QueueTable.open(c, queue).sendAll(c, messages);
        }
    }

    private static Properties parameters(Map<String, String> values) {
        Properties p = new Properties();
        p.putAll(values);
        return p;
    }

    /** Waits until the execution has ended and returns how. */
    private static BatchStatus ended(JobOperator jobs, long execution) throws Exception {
        Await.until("job execution " + execution + " ended", Duration.ofMinutes(3), () -> {
            BatchStatus s = jobs.getJobExecution(execution).getBatchStatus();
            return s == BatchStatus.COMPLETED || s == BatchStatus.FAILED || s == BatchStatus.STOPPED
                    || s == BatchStatus.ABANDONED;
        });
        return jobs.getJobExecution(execution).getBatchStatus();
    }

    @Test
    void aDrainJobThatFailsMidwayIsRestartedAndEveryMessageIsInTheTableExactlyOnce() throws Exception {
        String prefix = queue + "-";
        send(queue, prefix, 10_000);
        JobOperator jobs = BatchRuntime.getJobOperator();
        long first = jobs.start("sqlqueue-drain", parameters(Map.of("queue", queue, "idleTimeout", "0",
                "failAt", prefix + 5000)));
        assertEquals(BatchStatus.FAILED, ended(jobs, first));
        String mine = "SELECT COUNT(*) FROM batch_rows WHERE body LIKE '" + prefix + "%'";
        assertEquals(5000, count(mine), "the 50 chunks before the failing one, committed");
        assertEquals(5000, queued(queue), "the failing chunk's messages back in the queue, with the rest");

        // failAt empty, not left out: JBeret keeps the first execution's parameters a restart does not name
        long restart = jobs.restart(first, parameters(Map.of("queue", queue, "idleTimeout", "0", "failAt", "")));
        assertEquals(BatchStatus.COMPLETED, ended(jobs, restart));
        assertEquals(10_000, count(mine));
        assertEquals(10_000, count("SELECT COUNT(DISTINCT message_id) FROM batch_rows WHERE body LIKE '" + prefix + "%'"),
                "no message read twice");
        assertEquals(0, queued(queue));
        assertEquals(0, count("SELECT COUNT(*) FROM \"" + queue + "_dlq\""));
    }

    @Test
    void aFillJobsFailingChunkLeavesNoneOfItsMessagesAndTheBeanConsumesTheRestOnce() throws Exception {
        String prefix = queue + "-";
        String mine = "SELECT COUNT(*) FROM batch_rows WHERE consumer = 'mdb' AND body LIKE '" + prefix + "%'";
        JobOperator jobs = BatchRuntime.getJobOperator();
        long first = jobs.start("sqlqueue-fill", parameters(Map.of("queue", BatchRows.MDB_QUEUE, "count", "10000",
                "prefix", prefix, "failAt", prefix + 7777, "dataSource", BatchRows.DS)));
        assertEquals(BatchStatus.FAILED, ended(jobs, first));
        Await.until("the 7,700 messages of the committed chunks consumed", Duration.ofMinutes(2),
                () -> count(mine) >= 7700 && queued(BatchRows.MDB_QUEUE) == 0);
        assertEquals(7700, count(mine), "the 77 committed chunks; none of the failing one");
        assertEquals(0, count("SELECT COUNT(*) FROM batch_rows WHERE body LIKE '" + prefix + "77__'"),
                "nothing of the chunk that failed (" + prefix + "7700 to 7799)");

        long restart = jobs.restart(first, parameters(Map.of("queue", BatchRows.MDB_QUEUE, "count", "10000",
                "prefix", prefix, "dataSource", BatchRows.DS, "failAt", "")));
        assertEquals(BatchStatus.COMPLETED, ended(jobs, restart));
        Await.until("all 10,000 consumed", Duration.ofMinutes(2),
                () -> count(mine) >= 10_000 && queued(BatchRows.MDB_QUEUE) == 0);
        assertEquals(10_000, count(mine));
        assertEquals(10_000, count("SELECT COUNT(DISTINCT body) FROM batch_rows WHERE consumer = 'mdb'"
                + " AND body LIKE '" + prefix + "%'"), "each item once");
    }

    // Without the hints the reader's locking read locks nothing: a message the bean takes meanwhile
    // makes the reader's chunk roll back at its checkpoint (none consumed twice), and the job fail
    @Test
    @DisabledIf(value = "io.sqlqueue.it.harness.TestDatabase#isBabelfishOnClient",
            disabledReason = "Babelfish ignores the table hints UPDLOCK and READPAST")
    void aReaderAndAMessageDrivenBeanOnOneQueueNeverShareAMessage() throws Exception {
        String prefix = queue + "-";
        send(BatchRows.MDB_QUEUE, prefix, 3000);
        JobOperator jobs = BatchRuntime.getJobOperator();
        long drain = jobs.start("sqlqueue-drain", parameters(Map.of("queue", BatchRows.MDB_QUEUE,
                "idleTimeout", "1000")));
        assertEquals(BatchStatus.COMPLETED, ended(jobs, drain));
        String mine = " FROM batch_rows WHERE body LIKE '" + prefix + "%'";
        Await.until("all 3,000 consumed by one or the other", Duration.ofMinutes(2),
                () -> count("SELECT COUNT(*)" + mine) >= 3000 && queued(BatchRows.MDB_QUEUE) == 0);
        assertEquals(3000, count("SELECT COUNT(*)" + mine));
        assertEquals(3000, count("SELECT COUNT(DISTINCT message_id)" + mine), "no message consumed twice");
        long byReader = count("SELECT COUNT(*)" + mine + " AND consumer = 'reader'");
        System.out.println("BatchIT: of 3,000 messages the reader took " + byReader + ", the bean " + (3000 - byReader));
        assertTrue(byReader > 0, "the reader took some");
    }

    // Without the hints the probe below sees every row free, and the reader's rows are not held
    @Test
    @DisabledIf(value = "io.sqlqueue.it.harness.TestDatabase#isBabelfishOnClient",
            disabledReason = "Babelfish ignores the table hints UPDLOCK and READPAST")
    void aMessageGivenBackAheadOfWhatAChunkReadIsReadInTheSameStep() throws Exception {
        String prefix = queue + "-";
        send(queue, prefix, 10); // fewer than the chunk's 100: the reader holds them and waits for more
        long first = count("SELECT MIN(id) FROM \"" + queue + "\"");
        JobOperator jobs = BatchRuntime.getJobOperator();
        long drain;
        try (Connection other = BatchRows.dataSource().getConnection()) {
            other.setAutoCommit(false); // another consumer holding the first message
            try (Statement s = other.createStatement()) {
                s.executeQuery("SELECT id FROM \"" + queue + "\" WHERE id = " + first + " FOR UPDATE").close();
            }
            drain = jobs.start("sqlqueue-drain", parameters(Map.of("queue", queue, "idleTimeout", "4000")));
            Await.until("the reader holds the other 9", Duration.ofSeconds(30), () -> freeRows(queue) == 0);
            other.rollback(); // gives it back, ahead of the 9 in the dequeue order
            other.setAutoCommit(true);
        }
        assertEquals(BatchStatus.COMPLETED, ended(jobs, drain));
        assertEquals(10, count("SELECT COUNT(*) FROM batch_rows WHERE body LIKE '" + prefix + "%'"),
                "the given-back message read in the same step, before it ended");
        assertEquals(0, queued(queue));
    }

    /** Rows of the queue no transaction holds, by a locking read that skips held rows. */
    private static long freeRows(String queue) throws Exception {
        try (Connection c = BatchRows.dataSource().getConnection()) {
            c.setAutoCommit(false);
            long free = 0;
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT id FROM \"" + queue + "\" FOR UPDATE SKIP LOCKED")) {
                while (rs.next()) {
                    free++;
                }
            } finally {
                c.rollback();
                c.setAutoCommit(true);
            }
            return free;
        }
    }

    @Test
    void aFillJobWritesThroughAConnectionFactoryInTheChunksTransaction() throws Exception {
        String prefix = queue + "-";
        String mine = "SELECT COUNT(*) FROM batch_rows WHERE consumer = 'mdb' AND body LIKE '" + prefix + "%'";
        JobOperator jobs = BatchRuntime.getJobOperator();
        long fill = jobs.start("sqlqueue-fill", parameters(Map.of("queue", BatchRows.MDB_QUEUE, "count", "1000",
                "prefix", prefix, "failAt", prefix + 555, "connectionFactory", FACTORY)));
        assertEquals(BatchStatus.FAILED, ended(jobs, fill));
        Await.until("the 500 messages of the committed chunks consumed", Duration.ofMinutes(2),
                () -> count(mine) >= 500 && queued(BatchRows.MDB_QUEUE) == 0);
        assertEquals(500, count(mine), "the 5 committed chunks; none of the failing one");
    }
}
