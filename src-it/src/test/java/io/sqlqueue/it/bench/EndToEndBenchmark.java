package io.sqlqueue.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.QueueTable;
import jakarta.ejb.EJB;
import java.io.File;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The end-to-end benchmark ({@code mvn -B -Pbench -pl src-it verify}): message-driven beans fed
 * by the adapter in Payara Micro against the raw loop ({@link RawLoop}) on the same JDBC resource,
 * in the same run, at the same concurrency. Prints one line per case:
 * {@code BENCH case=<name> db=<db> … adapter=<n>/s raw=<m>/s ratio=<adapter/raw> p50=<ms> p99=<ms>}.
 *
 * <ul>
 *   <li>{@code per-message}: a filled queue drained by the per-message bean against the raw loop;
 *       p50/p99 (and raw_p50/raw_p99) are the cycle time of one delivery thread, commit to commit.
 *   <li>{@code per-message-after-rollback}: the same with attemptCounting=afterRollback (a failure
 *       counted after its rollback, not each attempt before delivery).
 *   <li>{@code per-message-lease-ahead-1}: the default with leaseAhead=1, one lease per message (the
 *       default before leases ahead).
 *   <li>{@code per-message-jms}: the default with the same work in a {@code jakarta.jms.MessageListener}
 *       bean. These four alternate round by round against one raw loop; {@code BENCH compare=} lines
 *       divide the default's rate and CPU by those of the two other countings, and the JMS bean's by
 *       the default's.
 *   <li>{@code batch}: the same by the batch bean (50 per transaction) against the per-message raw
 *       loop; p50/p99 are per batch.
 *   <li>{@code latency}: one message at a time sent through the connection factory, from before the
 *       send to the bean's {@code onMessage}, with the bean polling at most once a second (only the
 *       wake-up makes it quick) against a raw consumer polling every millisecond. The rates are
 *       sequential round trips per second.
 *   <li>{@code per-message-own-connections} and {@code latency-own-connections} (PostgreSQL only):
 *       the same with the adapter claiming through its own connections ({@code jdbcUrl}, XA), not
 *       the server's JDBC resource; the claim then commits in two phases with the bean's insert.
 * </ul>
 * Each figure is the median of the rounds, after a warm-up of both sides. The database is H2 unless
 * {@code bench.db=postgresql} (the default when SQLQUEUE_PG_URL is set).
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EndToEndBenchmark {

    private static final String SETTINGS = "bench.properties";
    private static final Duration PATIENCE = Duration.ofMinutes(10);

    @Deployment
    static WebArchive deployment() {
        String db = System.getProperty("bench.db", "");
        if (db.isEmpty()) {
            db = System.getenv("SQLQUEUE_PG_URL") != null ? "postgresql" : "h2";
        }
        String dataSource = switch (db) {
            case "postgresql" -> dataSource("org.postgresql.ds.PGSimpleDataSource", System.getenv("SQLQUEUE_PG_URL"),
                    System.getenv("SQLQUEUE_PG_USER"), System.getenv("SQLQUEUE_PG_PASSWORD"));
            case "h2" -> dataSource("org.h2.jdbcx.JdbcDataSource", "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
                    "sa", "sa");
            default -> throw new IllegalArgumentException("bench.db must be h2 or postgresql, not '" + db + "'");
        };
        String settings = "db=" + db + "\nmessages=" + System.getProperty("bench.messages", "10000")
                + "\nrounds=" + System.getProperty("bench.rounds", "5")
                + "\nlatencySamples=" + System.getProperty("bench.latency.samples", "500") + "\n";
        WebArchive war = ShrinkWrap.create(WebArchive.class, "bench.war")
                .addClasses(BenchBeans.class, BenchBeans.PerMessage.class, BenchBeans.PerMessageAfterRollback.class,
                        BenchBeans.PerMessageOneLeaseEach.class, BenchBeans.PerMessageJms.class,
                        BenchBeans.Batch.class,
                        BenchBeans.Latency.class, BenchBeans.Sender.class, Tally.class, Samples.class,
                        Arrivals.class, RawLoop.class)
                .addAsResource(new StringAsset(settings), SETTINGS)
                .addAsWebInfResource(new StringAsset("<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\""
                        + " version=\"6.0\">" + dataSource + "</web-app>"), "web.xml")
                .addAsLibraries(new File(System.getProperty("it.h2.jar")), new File(System.getProperty("it.pg.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml");
        if (db.equals("postgresql")) {
            // (On H2 the adapter's own driver would open another in-memory database than the WAR's.)
            war.addClasses(BenchBeans.PerMessageOwnConnections.class, BenchBeans.LatencyOwnConnections.class)
                    .addAsWebInfResource(new StringAsset(ownConnectionBeans(System.getenv("SQLQUEUE_PG_URL"),
                            System.getenv("SQLQUEUE_PG_USER"), System.getenv("SQLQUEUE_PG_PASSWORD"))), "ejb-jar.xml");
        }
        return war;
    }

    /** The activation config of the beans that claim through the adapter's own connections. */
    private static String ownConnectionBeans(String url, String user, String password) {
        String own = property("jdbcUrl", url) + property("user", user) + property("password", password);
        return "<ejb-jar xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\"><enterprise-beans>"
                + messageDriven(BenchBeans.PerMessageOwnConnections.class, own + property("queue", "bench_own")
                        + property("maxConcurrency", "" + BenchBeans.CONCURRENCY) + property("pollInterval", "20")
                        + property("maxPollInterval", "20"))
                + messageDriven(BenchBeans.LatencyOwnConnections.class, own + property("queue", "bench_latency_own")
                        + property("pollInterval", "1000") + property("maxPollInterval", "10000"))
                + "</enterprise-beans></ejb-jar>";
    }

    private static String messageDriven(Class<?> bean, String activationConfig) {
        return "<message-driven><ejb-name>" + bean.getSimpleName() + "</ejb-name><ejb-class>" + bean.getName()
                + "</ejb-class><messaging-type>io.sqlqueue.api.QueueListener</messaging-type><activation-config>"
                + activationConfig + "</activation-config></message-driven>";
    }

    private static String property(String name, String value) {
        return "<activation-config-property><activation-config-property-name>" + name
                + "</activation-config-property-name><activation-config-property-value>" + xml(value)
                + "</activation-config-property-value></activation-config-property>";
    }

    private static String dataSource(String className, String url, String user, String password) {
        return "<data-source><name>" + BenchBeans.DS + "</name><class-name>" + className + "</class-name>"
                + "<url>" + xml(url) + "</url><user>" + xml(user) + "</user><password>" + xml(password) + "</password>"
                + "<transactional>true</transactional><min-pool-size>8</min-pool-size>"
                + "<max-pool-size>32</max-pool-size></data-source>";
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;");
    }

    @EJB
    private BenchBeans.Sender sender;

    private DataSource ds;
    private String db;
    private int messages;
    private int rounds;
    private int latencySamples;

    @BeforeEach
    void setUp() throws Exception {
        Properties settings = new Properties();
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(SETTINGS)) {
            settings.load(in);
        }
        db = settings.getProperty("db");
        messages = Integer.parseInt(settings.getProperty("messages"));
        rounds = Integer.parseInt(settings.getProperty("rounds"));
        latencySamples = Integer.parseInt(settings.getProperty("latencySamples"));
        ds = InitialContext.doLookup(BenchBeans.DS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS bench_done (message_id BIGINT NOT NULL)");
            for (String q : new String[] {"bench_single", "bench_single_ar", "bench_single_l1", "bench_single_jms", "bench_batch",
                    "bench_latency", "bench_raw", "bench_raw_latency", "bench_own", "bench_latency_own"}) {
                QueueTable.open(c, q).createIfMissing(c);
                s.execute("DELETE FROM \"" + q + "\"");
            }
        }
    }

    /**
     * The four per-message cases in one measurement: after a warm-up of each, every round runs the
     * raw loop and then each case, so that all of them meet the same server and database state (a
     * case measured first, right after the deployment, ran up to half as fast as the same case
     * later). Then {@code BENCH compare=} lines: the default's rate over the other countings', and
     * the MessageListener bean's over the default's.
     */
    @Test
    @Order(1)
    void perMessage() throws Exception {
        String[] names = {"per-message", "per-message-after-rollback", "per-message-lease-ahead-1",
            "per-message-jms"};
        String[] queues = {"bench_single", "bench_single_ar", "bench_single_l1", "bench_single_jms"};
        Tally[] tallies = {BenchBeans.PER_MESSAGE, BenchBeans.PER_MESSAGE_AFTER_ROLLBACK,
            BenchBeans.PER_MESSAGE_ONE_LEASE_EACH, BenchBeans.PER_MESSAGE_JMS};
        RawLoop raw = new RawLoop(ds, db);
        Tally rawTally = new Tally();
        runRaw(raw, rawTally, messages);
        for (int i = 0; i < names.length; i++) {
            runAdapter(queues[i], tallies[i], messages);
        }
        rawTally.cycles().clear();
        for (Tally t : tallies) {
            t.cycles().clear();
        }
        Run[] baseline = new Run[rounds];
        Run[][] cases = new Run[names.length][rounds];
        for (int r = 0; r < rounds; r++) {
            baseline[r] = runRaw(raw, rawTally, messages);
            for (int i = 0; i < names.length; i++) {
                cases[i][r] = runAdapter(queues[i], tallies[i], messages);
            }
            System.out.println(String.format(Locale.ROOT, "BENCH round=%d raw=%.0f/s,%.0fus %s", r, baseline[r].rate(),
                    baseline[r].cpuMicros(), roundFigures(names, cases, r)));
        }
        Run rawMedian = Run.median(baseline);
        Run[] medians = new Run[names.length];
        for (int i = 0; i < names.length; i++) {
            medians[i] = Run.median(cases[i]);
            print(names[i], BenchBeans.CONCURRENCY, messages, rounds, rawMedian, rawTally.cycles(), medians[i],
                    tallies[i].cycles());
        }
        for (int i = 1; i < names.length - 1; i++) {
            printComparison(names[0], medians[0], names[i], medians[i]);
        }
        int jms = names.length - 1; // the same bean work through a MessageListener, over the QueueListener
        printComparison(names[jms], medians[jms], names[0], medians[0]);
    }

    private static String roundFigures(String[] names, Run[][] cases, int r) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            b.append(String.format(Locale.ROOT, " %s=%.0f/s,%.0fus", names[i], cases[i][r].rate(), cases[i][r].cpuMicros()));
        }
        return b.toString();
    }

    private void printComparison(String name, Run run, String baselineName, Run baseline) {
        System.out.println(String.format(Locale.ROOT, "BENCH compare=%s/%s db=%s ratio=%.2f cpu_ratio=%.2f",
                name, baselineName, db, run.rate() / baseline.rate(), run.cpuMicros() / baseline.cpuMicros()));
    }

    @Test
    @Order(2)
    void batch() throws Exception {
        // batches drain several times faster: more messages keep each run long enough to measure
        compare("batch", "bench_batch", BenchBeans.BATCHES, messages * 5);
    }

    /**
     * Warms both sides up with one run each, then alternates raw and adapter runs; prints the
     * medians. The raw side always drains {@code messages} one per transaction.
     */
    private void compare(String name, String queue, Tally beans, int adapterMessages) throws Exception {
        RawLoop raw = new RawLoop(ds, db);
        Tally rawTally = new Tally();
        runRaw(raw, rawTally, messages);
        runAdapter(queue, beans, adapterMessages);
        rawTally.cycles().clear();
        beans.cycles().clear();
        Run[] adapter = new Run[rounds];
        Run[] baseline = new Run[rounds];
        for (int r = 0; r < rounds; r++) {
            baseline[r] = runRaw(raw, rawTally, messages);
            adapter[r] = runAdapter(queue, beans, adapterMessages);
        }
        print(name, BenchBeans.CONCURRENCY, adapterMessages, rounds, Run.median(baseline), rawTally.cycles(),
                Run.median(adapter), beans.cycles());
    }

    @Test
    @Order(3)
    void latency() throws Exception {
        latency("latency", "bench_latency");
    }

    @Test
    @Order(4)
    void perMessageThroughOwnConnections() throws Exception {
        assumeTrue(db.equals("postgresql"), "the own-connection cases run on PostgreSQL only");
        compare("per-message-own-connections", "bench_own", BenchBeans.PER_MESSAGE_OWN_CONNECTIONS, messages);
    }

    @Test
    @Order(5)
    void latencyThroughOwnConnections() throws Exception {
        assumeTrue(db.equals("postgresql"), "the own-connection cases run on PostgreSQL only");
        latency("latency-own-connections", "bench_latency_own");
    }

    private void latency(String name, String queue) throws Exception {
        Samples adapter = new Samples();
        Samples baseline = new Samples();
        AtomicBoolean stop = new AtomicBoolean();
        Thread rawConsumer = new Thread(new RawLoop(ds, db).poller("bench_raw_latency", BenchBeans.ARRIVALS, stop));
        rawConsumer.start();
        try {
            roundTrips("bench_raw_latency", latencySamples / 5, new Samples()); // warm-up
            roundTrips(queue, latencySamples / 5, new Samples());
            Run raw = roundTrips("bench_raw_latency", latencySamples, baseline);
            Run beans = roundTrips(queue, latencySamples, adapter);
            print(name, 1, latencySamples, 1, raw, baseline, beans, adapter);
        } finally {
            stop.set(true);
            rawConsumer.join();
        }
    }

    // ---- runs ---------------------------------------------------------------------------------

    /** A run's messages per second, and the server's CPU time per message (all its threads). */
    private record Run(double rate, double cpuMicros) {

        static Run of(int messages, long nanos, long cpuNanos) {
            return new Run(messages / (nanos / 1e9), cpuNanos / 1e3 / messages);
        }

        /** The run with the median rate. */
        static Run median(Run[] runs) {
            Run[] sorted = runs.clone();
            Arrays.sort(sorted, Comparator.comparingDouble(Run::rate));
            return sorted[sorted.length / 2];
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Fills the queue in one transaction, then the beans drain it; timed from the filling commit. */
    private Run runAdapter(String queue, Tally tally, int n) throws Exception {
        tally.reset();
        fill(queue, n);
        long cpu = cpuNanos();
        long start = System.nanoTime();
        long last = tally.awaitCommitted(n, PATIENCE);
        cpu = cpuNanos() - cpu;
        assertDrained(queue, n);
        return Run.of(n, last - start, cpu);
    }

    private Run runRaw(RawLoop raw, Tally tally, int n) throws Exception {
        tally.reset();
        fill("bench_raw", n);
        long cpu = cpuNanos();
        long start = System.nanoTime();
        raw.drain("bench_raw", BenchBeans.CONCURRENCY, n, tally);
        long last = tally.awaitCommitted(n, PATIENCE);
        cpu = cpuNanos() - cpu;
        assertDrained("bench_raw", n);
        return Run.of(n, last - start, cpu);
    }

    /** Sends {@code n} messages one after the other, each once the previous one arrived; the rate counts only the waits. */
    private Run roundTrips(String queue, int n, Samples latencies) throws Exception {
        long cpu = cpuNanos();
        long total = 0;
        for (int i = 0; i < n; i++) {
            String text = queue + "-" + i + "-" + System.nanoTime();
            BenchBeans.ARRIVALS.expect(text);
            long sent = System.nanoTime();
            sender.send(queue, text);
            long took = BenchBeans.ARRIVALS.awaitArrival(text, Duration.ofSeconds(30)) - sent;
            latencies.add(took);
            total += took;
            LockSupport.parkNanos(Duration.ofMillis(2).toNanos()); // let the consumer go idle again
        }
        cpu = cpuNanos() - cpu;
        awaitCount("SELECT COUNT(*) FROM \"" + queue + "\"", 0); // the last one committed too
        return Run.of(n, total, cpu);
    }

    /**
     * Empties the beans' table and fills the queue in one transaction. On PostgreSQL both tables
     * are vacuumed first, so each run starts without the last run's dead rows.
     */
    private void fill(String queue, int n) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE TABLE bench_done");
            if (db.equals("postgresql")) {
                s.execute("VACUUM bench_done");
                s.execute("VACUUM \"" + queue + "\"");
            }
            c.setAutoCommit(false);
            QueueTable table = QueueTable.open(c, queue);
            List<OutgoingMessage> chunk = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                chunk.add(OutgoingMessage.text("m" + i).build());
                if (chunk.size() == 1000 || i == n - 1) {
                    table.sendAll(c, chunk);
                    chunk.clear();
                }
            }
            c.commit(); // all visible at once
            c.setAutoCommit(true);
        }
    }

    /** Every message consumed exactly once: the queue is empty and the beans' table has one row each. */
    private void assertDrained(String queue, int n) throws Exception {
        awaitCount("SELECT COUNT(*) FROM \"" + queue + "\"", 0);
        assertEquals(n, count("SELECT COUNT(DISTINCT message_id) FROM bench_done"), "distinct messages done");
        assertEquals(n, count("SELECT COUNT(*) FROM bench_done"), "rows done");
    }

    private void awaitCount(String sql, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (count(sql) != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(sql + " is " + count(sql) + ", not " + expected);
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }

    private long count(String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void print(String name, int threads, int n, int runs, Run raw, Samples rawTimes, Run adapter,
            Samples adapterTimes) {
        System.out.println(String.format(Locale.ROOT, "BENCH case=%s db=%s threads=%d messages=%d rounds=%d"
                + " cpu_us=%.0f raw_cpu_us=%.0f raw_p50=%.2f raw_p99=%.2f"
                + " adapter=%.0f/s raw=%.0f/s ratio=%.2f p50=%.2f p99=%.2f",
                name, db, threads, n, runs, adapter.cpuMicros(), raw.cpuMicros(),
                rawTimes.percentileMillis(50), rawTimes.percentileMillis(99),
                adapter.rate(), raw.rate(), adapter.rate() / raw.rate(),
                adapterTimes.percentileMillis(50), adapterTimes.percentileMillis(99)));
    }
}
