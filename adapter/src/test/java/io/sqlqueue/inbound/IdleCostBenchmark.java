package io.sqlqueue.inbound;

import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.engine.Dialect;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.RetryPolicy;
import io.sqlqueue.engine.TestDatabase;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.h2.jdbcx.JdbcDataSource;

/**
 * What idle activations cost: 100 message-driven beans on 100 empty queues, each activated with
 * the default activation properties (only the queue named) through {@link FakeContainer}. The
 * target (issue 16): at most 1 query a second per idle activation at the default
 * {@code maxPollInterval}, and bounded heap. What to expect from {@link Poller}: idle, a poller
 * peeks every {@code maxPollInterval} (5 s) and sweeps expired messages every 30 s, so 14
 * statements a minute (0.233/s); the journal trim (once a minute) runs only with {@code journal=true},
 * off by default.
 *
 * <p>Run with {@code mvn -B -Pbench -pl adapter verify -Dbench.cases=idle-100}: H2 always,
 * PostgreSQL when {@code SQLQUEUE_PG_URL} is set; {@code -Dbench.db=h2} or {@code postgresql} picks
 * one, {@code -Dbench.idle.seconds=N} the counting window (default 60, after a 15 s warm-up).
 * Prints one line per database:
 * {@code BENCH case=idle-100 db=<db> activations=100 seconds=<s> queries_per_s_per_activation=<x>
 * heap_bytes_per_activation=<n> threads_per_activation=<t> connections_per_activation=<c>
 * counted_by=<how>}, and logs the statements by kind.
 *
 * <ul>
 * <li><b>Queries</b>: the statements of any session that name one of the 100 queue tables or their
 * dead-letter tables, as the database counts them (see {@link #statements}): H2 in
 * {@code INFORMATION_SCHEMA.QUERY_STATISTICS}; PostgreSQL in {@code pg_stat_statements} where that
 * extension's library is loaded (this run creates the extension if it is missing, and drops it
 * again), otherwise as transactions in {@code pg_stat_database}, a few percent too many. For the exact
 * count on CI's throwaway cluster, as its superuser:
 * {@code ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'}, then restart it.
 * <li><b>Heap</b>: used heap after full collections with the adapter started and no activation,
 * against the same with the 100 activations idle. On H2 that includes the embedded database's
 * sessions, which live in this JVM. The benchmark runs inside Maven's JVM: only the difference
 * means anything.
 * <li><b>Threads</b> of this JVM and <b>connections</b> the database counts for its database
 * ({@code pg_stat_activity}, H2's {@code INFORMATION_SCHEMA.SESSIONS}), at the same two moments.
 * </ul>
 */
public final class IdleCostBenchmark {

    private static final Logger LOG = Logger.getLogger(IdleCostBenchmark.class.getName());
    /**
     * The activations' logger: it logs each activation and deactivation at INFO, 200 lines here
     * that would bury the result, so only its warnings are shown. (Held here: a logger nobody
     * references can be collected, and its level with it.)
     */
    private static final Logger ACTIVATION_LOG = Logger.getLogger(QueueActivation.class.getName());

    private static final String CASE = "idle-100";
    private static final int ACTIVATIONS = 100;
    private static final long SECONDS = Long.getLong("bench.idle.seconds", 60);
    /**
     * Before counting: an idle poller's wait doubles from pollInterval (200 ms) to maxPollInterval
     * (5 s) over its first 6.2 s, and its housekeeping (the expiry sweep) first runs 5 s after the
     * activation; the rest is for 100 pollers to connect on a busy 2-core machine.
     */
    private static final Duration WARM_UP = Duration.ofSeconds(15);
    /** What pg_stat_database's count is filed under: it knows transactions, not statements. */
    private static final String TRANSACTIONS = "TRANSACTIONS";

    /** How the statements are counted: see {@link #statements}. */
    private enum Counting { H2_QUERY_STATISTICS, PG_STAT_STATEMENTS, PG_STAT_DATABASE }

    /** The statements counted over {@code seconds}, by their first word. */
    private record Statements(Counting counting, Map<String, Long> byKind, double seconds) {
        double perSecondPerActivation() {
            return byKind.values().stream().mapToLong(Long::longValue).sum() / seconds / ACTIVATIONS;
        }
    }

    /** What this JVM and the database hold at one moment. */
    private record Footprint(long heapBytes, int threads, long connections) {
    }

    /** An activation to undo at the end. */
    private record Activation(MessageEndpointFactory factory, QueueActivationSpec spec) {
    }

    private final TestDatabase db;
    private final String[] settings;
    /** Begins every table name of this run, so the statement counts can pick out the run's statements. */
    private final String prefix = "idle_" + Long.toHexString(System.nanoTime()) + "_";
    /** Whether this run created the pg_stat_statements extension (and so drops it again). */
    private boolean createdExtension;

    private IdleCostBenchmark(TestDatabase db, String[] settings) {
        this.db = db;
        this.settings = settings;
    }

    public static void main(String[] args) throws Exception {
        String cases = System.getProperty("bench.cases", "");
        if (!cases.isEmpty() && !List.of(cases.split(",")).contains(CASE)) {
            return;
        }
        ACTIVATION_LOG.setLevel(Level.WARNING);
        // The adapter connects by URL: H2's is that of TestDatabase's fresh in-memory database.
        TestDatabase h2 = TestDatabase.h2();
        JdbcDataSource h2Source = (JdbcDataSource) h2.dataSource();
        List<IdleCostBenchmark> runs = List.of(
                new IdleCostBenchmark(h2, new String[] {h2Source.getURL(), h2Source.getUser(), ""}),
                new IdleCostBenchmark(TestDatabase.postgres(), TestDatabase.settings("SQLQUEUE_PG")));
        String only = System.getProperty("bench.db", "");
        for (IdleCostBenchmark run : runs) {
            if (!only.isEmpty() && !only.equals(run.db.name())) {
                continue;
            }
            if (!run.db.available()) {
                System.out.println("BENCH skipped case=" + CASE + " db=" + run.db.name() + ": " + run.db.missingReason());
                continue;
            }
            run.run();
        }
    }

    private void run() throws Exception {
        FakeContainer container = new FakeContainer();
        QueueResourceAdapter adapter = new QueueResourceAdapter();
        adapter.setJdbcUrl(settings[0]);
        adapter.setUser(settings[1]);
        adapter.setPassword(settings[2]);
        List<QueueTable> queues = new ArrayList<>();
        List<Activation> active = new ArrayList<>();
        // Started before this benchmark connects: outside the system class loader (here, Maven's
        // loader of this run) the last adapter to stop deregisters the JDBC drivers it loaded, as
        // when a server undeploys it, so the previous database's run left none for DriverManager,
        // through which TestDatabase's data sources connect. Starting registers them again.
        adapter.start(container);
        try (Connection admin = db.connect()) {
            try {
                Dialect dialect = Dialect.of(admin);
                for (int i = 0; i < ACTIVATIONS; i++) {
                    QueueTable queue = new QueueTable(dialect, prefix + i, null, RetryPolicy.DEFAULT);
                    queues.add(queue); // before creating it: the clean-up drops what exists
                    queue.createIfMissing(admin);
                }
                Footprint started = footprint(admin);

                for (QueueTable queue : queues) {
                    QueueActivationSpec spec = new QueueActivationSpec(); // the defaults, but for the queue
                    spec.setQueue(queue.name().toString());
                    MessageEndpointFactory factory = container.endpointFactory(messages -> {
                    }, false, true);
                    adapter.endpointActivation(factory, spec);
                    active.add(new Activation(factory, spec));
                }
                LOG.info(() -> db.name() + ": " + ACTIVATIONS + " activations; warming up for " + WARM_UP.toSeconds()
                        + " s, then counting statements for " + SECONDS + " s");
                Thread.sleep(WARM_UP.toMillis());
                Statements statements = countStatements(admin);
                Footprint idle = footprint(admin);

                LOG.info(() -> db.name() + ": per activation in " + SECONDS + " s: " + perActivation(statements.byKind())
                        + (statements.counting() == Counting.PG_STAT_DATABASE ? ""
                                : " (statements by first word; SELECT: the peeks; the expiry sweep: INSERT on H2, WITH"
                                        + " on PostgreSQL)"));
                System.out.println(String.format(Locale.ROOT, "BENCH case=%s db=%s activations=%d seconds=%d"
                                + " queries_per_s_per_activation=%.3f heap_bytes_per_activation=%d"
                                + " threads_per_activation=%.2f connections_per_activation=%.2f counted_by=%s",
                        CASE, db.name(), ACTIVATIONS, SECONDS, statements.perSecondPerActivation(),
                        (idle.heapBytes() - started.heapBytes()) / ACTIVATIONS,
                        (idle.threads() - started.threads()) / (double) ACTIVATIONS,
                        (idle.connections() - started.connections()) / (double) ACTIVATIONS,
                        statements.counting().name().toLowerCase(Locale.ROOT)));
            } finally {
                for (Activation a : active) {
                    adapter.endpointDeactivation(a.factory(), a.spec());
                }
                cleanUp(admin, queues);
            }
        } finally {
            adapter.stop();
            container.shutdown();
        }
    }

    // ---- counting statements ------------------------------------------------------------------

    private Statements countStatements(Connection admin) throws Exception {
        Counting counting = startCounting(admin);
        Map<String, Long> before = statements(admin, counting);
        long start = System.nanoTime();
        Thread.sleep(Duration.ofSeconds(SECONDS).toMillis());
        Map<String, Long> after = statements(admin, counting);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (counting == Counting.H2_QUERY_STATISTICS) {
            try (Statement s = admin.createStatement()) {
                s.execute("SET QUERY_STATISTICS FALSE"); // H2 forgets what it kept, before the heap is measured
            }
        }
        Map<String, Long> made = new TreeMap<>();
        after.forEach((kind, n) -> {
            long delta = n - before.getOrDefault(kind, 0L);
            if (delta != 0) { // pg_stat_statements still lists the CREATE TABLEs, for instance
                made.put(kind, delta);
            }
        });
        made.computeIfPresent(TRANSACTIONS, (kind, n) -> n - 1); // the first read's own transaction
        return new Statements(counting, made, seconds);
    }

    /**
     * Turns on whatever counts statements here. H2 keeps no statistics until told to, and then
     * only of 100 different statements unless told otherwise (this run has about 200).
     */
    private Counting startCounting(Connection admin) throws SQLException {
        if (db.name().equals("h2")) {
            try (Statement s = admin.createStatement()) {
                s.execute("SET QUERY_STATISTICS_MAX_ENTRIES 10000");
                s.execute("SET QUERY_STATISTICS TRUE");
            }
            return Counting.H2_QUERY_STATISTICS;
        }
        // pg_stat_statements works only when the server loaded its library at start.
        if (!queryString(admin, "SELECT current_setting('shared_preload_libraries')").contains("pg_stat_statements")) {
            LOG.info("pg_stat_statements is not loaded (shared_preload_libraries): counting transactions instead");
            return Counting.PG_STAT_DATABASE;
        }
        if (queryString(admin, "SELECT to_regclass('pg_stat_statements')") == null) {
            try (Statement s = admin.createStatement()) {
                s.execute("CREATE EXTENSION pg_stat_statements");
            }
            createdExtension = true;
        }
        return Counting.PG_STAT_STATEMENTS;
    }

    /**
     * Counts that grow by one per statement, by the statement's first word.
     *
     * <p>H2's QUERY_STATISTICS and pg_stat_statements count executions per statement text, of
     * every session. Those whose text names one of this run's tables are exactly the activations'
     * statements (peeks, expiry sweeps): not BEGIN and COMMIT around a sweep, and not this
     * benchmark's own queries, whose texts name no table (the pattern is a parameter).
     *
     * <p>pg_stat_database counts the committed and rolled-back transactions of the whole database
     * (filed under {@value #TRANSACTIONS}). A poller's statement runs in auto-commit, or alone in a
     * sweep's transaction, so there one transaction is one statement; but the count also takes in
     * this benchmark's first read (the second sees it; {@link #countStatements} takes it off) and
     * whatever else runs in the database, such as autovacuum's visits: an upper bound.
     */
    private Map<String, Long> statements(Connection admin, Counting counting) throws SQLException {
        String sql = switch (counting) {
            case H2_QUERY_STATISTICS -> "SELECT SQL_STATEMENT, EXECUTION_COUNT FROM INFORMATION_SCHEMA.QUERY_STATISTICS"
                    + " WHERE LOWER(SQL_STATEMENT) LIKE ?";
            case PG_STAT_STATEMENTS -> "SELECT query, calls FROM pg_stat_statements"
                    + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query LIKE ?";
            case PG_STAT_DATABASE -> "SELECT '" + TRANSACTIONS + "', xact_commit + xact_rollback FROM pg_stat_database"
                    + " WHERE datname = current_database()";
        };
        Map<String, Long> counts = new TreeMap<>();
        try (PreparedStatement ps = admin.prepareStatement(sql)) {
            if (counting != Counting.PG_STAT_DATABASE) {
                ps.setString(1, "%" + prefix + "%");
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String firstWord = rs.getString(1).trim().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
                    counts.merge(firstWord, rs.getLong(2), Long::sum);
                }
            }
        }
        return counts;
    }

    private static String perActivation(Map<String, Long> counts) {
        List<String> parts = new ArrayList<>();
        counts.forEach((kind, n) -> parts.add(String.format(Locale.ROOT, "%s %.2f", kind, n / (double) ACTIVATIONS)));
        return String.join(", ", parts);
    }

    // ---- heap, threads, connections -----------------------------------------------------------

    private Footprint footprint(Connection admin) throws Exception {
        // The lowest used heap right after one of several full collections: a collection can
        // leave some garbage behind, or an allocation slip in before the reading.
        long heap = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            System.gc();
            heap = Math.min(heap, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
            Thread.sleep(200);
        }
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        String sessions = db.name().equals("h2") ? "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS"
                : "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()";
        return new Footprint(heap, threads, Long.parseLong(queryString(admin, sessions)));
    }

    private static String queryString(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    // ---- cleaning up --------------------------------------------------------------------------

    /**
     * Drops the run's tables (those that exist) and the extension it created. A failing drop is
     * logged and the rest go on: it must not hide the failure that ended the run, if any.
     */
    private void cleanUp(Connection admin, List<QueueTable> queues) {
        List<String> drops = new ArrayList<>();
        for (QueueTable queue : queues) {
            drops.add("DROP TABLE IF EXISTS " + queue.dialect().qualified(queue.name()));
            drops.add("DROP TABLE IF EXISTS " + queue.dialect().qualified(queue.deadLetterName()));
        }
        if (createdExtension) {
            drops.add("DROP EXTENSION pg_stat_statements");
        }
        for (String drop : drops) {
            try (Statement s = admin.createStatement()) {
                s.execute(drop);
            } catch (SQLException e) {
                LOG.log(Level.WARNING, "cleaning up failed: " + drop, e);
            }
        }
    }
}
