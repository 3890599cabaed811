package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/**
 * Measures the engine against raw JDBC loops of the seeds' statements, on the same database and
 * table in the same run, so the ratio means something on a noisy machine. Run with
 * {@code mvn -B -Pbench -pl adapter verify}; every configured database is measured (H2 always,
 * PostgreSQL / SQL Server through the SQLQUEUE_* variables; {@code -Dbench.db=postgresql} picks
 * one; {@code -Dbench.cases=enqueue,claim} some cases). Prints one line per case:
 * {@code BENCH case=<name> db=<db> threads=<t> engine=<n>/s raw=<m>/s ratio=<engine/raw>}.
 *
 * <p>Each figure is the better of two alternating rounds ({@code -Dbench.seconds}, default 3 s
 * each, after a warm-up). Cases: {@code enqueue} (one message per transaction) and {@code claim}
 * (one message per transaction) at 1, 4 and 16 threads; {@code batch-claim} (50 per transaction)
 * against the one-per-transaction raw loop; {@code deep-queue}: the engine's claim rate with
 * 1,000,000 ready rows (engine) against its rate with 1,000 (raw column); {@code counted-claim}: the
 * adapter's transacted delivery (lease, then delete under it in a second transaction) against the
 * engine's one-transaction claim (raw column); {@code ordered-keys-1}, {@code -10} and {@code -1000}:
 * ordered delivery ({@link QueueTable#inKeyOrder()}, one message per transaction at 16 threads)
 * from a queue whose messages carry that many ordering keys, sent round-robin, against unordered
 * claims of the same queue (raw column); {@code fan-out-1}, {@code -4} and {@code -16}: publishing to a
 * topic with that many subscriptions, one message per transaction, against sending the message to
 * each of the subscriptions' queues in one transaction (messages written per second on both sides);
 * {@code not-ready-ahead}: the claim rate from 1,000 ready rows behind 100,000 delayed and 100,000
 * leased rows of a higher priority (engine column) against the rate from the 1,000 alone (raw column).
 */
public final class EngineBenchmark {

    private static final long MEASURE_NANOS = Long.getLong("bench.seconds", 3) * 1_000_000_000L;
    private static final int[] THREADS = {1, 4, 16};
    private static final byte[] BODY = "{\"order\":12345,\"customer\":\"c-42\",\"total\":99.95}".getBytes();

    private final TestDatabase db;
    private final QueueTable queue;
    private final String table;
    private final RawLoop raw;

    private EngineBenchmark(TestDatabase db, Connection c) throws SQLException {
        this.db = db;
        this.queue = new QueueTable(Dialect.of(c), "bench_" + Long.toHexString(System.nanoTime()), null,
                RetryPolicy.DEFAULT);
        this.table = queue.dialect().qualified(queue.name());
        this.raw = RawLoop.of(queue.dialect().name(), table, Babelfish.isBabelfish(c));
    }

    public static void main(String[] args) throws Exception {
        List<TestDatabase> dbs = List.of(TestDatabase.h2(), TestDatabase.postgres(), TestDatabase.sqlServer());
        String only = System.getProperty("bench.db", "");
        for (TestDatabase db : dbs) {
            if (!only.isEmpty() && !only.equals(db.name())) {
                continue;
            }
            if (!db.available()) {
                System.out.println("BENCH skipped db=" + db.name() + ": " + db.missingReason());
                continue;
            }
            try (Connection c = db.connect()) {
                new EngineBenchmark(db, c).run(c);
            }
        }
    }

    private void run(Connection c) throws Exception {
        queue.createIfMissing(c);
        try {
            if (selected("enqueue")) {
                for (int t : THREADS) {
                    compare("enqueue", t, () -> measure(t, this::engineSend), () -> measure(t, raw::insert));
                }
            }
            if (selected("claim")) {
                for (int t : THREADS) {
                    compare("claim", t, () -> refilled(c, () -> measure(t, conn -> engineClaim(conn, 1))),
                            () -> refilled(c, () -> measure(t, raw::dequeue)));
                }
            }
            if (selected("counted-claim")) {
                // What the adapter's transacted delivery does (a committed lease counts the attempt,
                // then a delete under it in the delivery transaction) against a claim that deletes in
                // the delivery transaction and counts only failures, after the rollback.
                for (int t : THREADS) {
                    compare("counted-claim", t, () -> refilled(c, () -> measure(t, this::engineCountedClaim)),
                            () -> refilled(c, () -> measure(t, conn -> engineClaim(conn, 1))));
                }
            }
            if (selected("batch-claim-50")) {
                compare("batch-claim-50", 4, () -> refilled(c, () -> measure(4, conn -> engineClaim(conn, 50))),
                        () -> refilled(c, () -> measure(4, raw::dequeue)));
            }
            if (selected("batch-reader-100")) {
                // The Jakarta Batch reader's statements for a chunk of 100 (io.sqlqueue.batch.QueueItemReader:
                // a locking read, then the deletes of what it handed out, in the chunk's transaction) against
                // the engine's batch claim of 100 in one transaction.
                compare("batch-reader-100", 4, () -> refilled(c, () -> measure(4, conn -> readerChunk(conn, 100))),
                        () -> refilled(c, () -> measure(4, conn -> engineClaim(conn, 100))));
            }
            for (int keys : new int[] {1, 10, 1000}) {
                if (selected("ordered-keys-" + keys)) {
                    QueueTable ordered = queue.inKeyOrder();
                    compare("ordered-keys-" + keys, 16,
                            () -> keyed(c, keys, () -> measure(16, conn -> claimOne(conn, ordered))),
                            () -> keyed(c, keys, () -> measure(16, conn -> claimOne(conn, queue))));
                }
            }
            for (int subscriptions : new int[] {1, 4, 16}) {
                if (selected("fan-out-" + subscriptions)) {
                    fanOut(c, subscriptions);
                }
            }
            if (selected("deep-queue-1M-vs-1k")) {
                deepQueue(c);
            }
            if (selected("not-ready-ahead")) {
                notReadyAhead(c);
            }
        } finally {
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE " + table);
                s.execute("DROP TABLE " + queue.dialect().qualified(queue.deadLetterName()));
            }
        }
    }

    /** {@code -Dbench.cases=enqueue,claim} runs only those cases; all by default. */
    private static boolean selected(String name) {
        String cases = System.getProperty("bench.cases", "");
        return cases.isEmpty() || List.of(cases.split(",")).contains(name);
    }

    // ---- the work measured --------------------------------------------------------------------

    private int engineSend(Connection c) throws SQLException {
        queue.send(c, OutgoingMessage.bytes(BODY).build());
        return 1;
    }

    private int engineClaim(Connection c, int n) throws SQLException {
        c.setAutoCommit(false);
        int got = queue.claim(c, n).size();
        c.commit();
        return got;
    }

    private static int claimOne(Connection c, QueueTable from) throws SQLException {
        c.setAutoCommit(false);
        int got = from.claim(c, 1).size();
        c.commit();
        return got;
    }

    private int readerChunk(Connection c, int n) throws SQLException {
        c.setAutoCommit(false);
        int got = queue.deleteHeld(c, queue.hold(c, n, null));
        c.commit();
        return got;
    }

    private int engineCountedClaim(Connection c) throws SQLException {
        c.setAutoCommit(true);
        List<LeasedMessage> leased = queue.lease(c, 1, java.time.Duration.ofMinutes(1));
        if (leased.isEmpty()) {
            return 0;
        }
        c.setAutoCommit(false);
        int got = queue.ack(c, leased.get(0)) ? 1 : 0;
        c.commit();
        c.setAutoCommit(true);
        return got;
    }

    /**
     * The seeds' statements, written by hand per database: a plain INSERT, and the one-statement
     * dequeue (SQL Server's CTE with ROWLOCK, READPAST, UPDLOCK and DELETE … OUTPUT; PostgreSQL's
     * FOR UPDATE SKIP LOCKED with RETURNING; H2's OLD TABLE form), one message per transaction.
     * The dequeue reads the rows that are not hidden, in the ready index's order, as the table's
     * indexes are made for: the seeds' {@code WHERE visible_at <= now ORDER BY priority DESC, id}
     * alone finds no index in order on these tables.
     */
    private record RawLoop(String insertSql, String dequeueSql, String fillSql) {

        /**
         * On Babelfish, which refuses DML through a CTE (its README's table), the raw dequeue is
         * the same statement in the join form: figures there are Babelfish's, not SQL Server's.
         */
        static RawLoop of(String dialect, String q, boolean babelfish) {
            return switch (dialect) {
                case "sqlserver" -> new RawLoop(
                        "INSERT INTO " + q + " (priority, visible_at, enqueued_at, body) VALUES (0, SYSUTCDATETIME(), SYSUTCDATETIME(), ?)",
                        babelfish
                                ? "DELETE t OUTPUT deleted.id, deleted.body FROM " + q + " t JOIN (SELECT TOP (1) id FROM " + q
                                        + " WITH (ROWLOCK, READPAST, UPDLOCK) WHERE hidden IS NULL AND visible_at <= SYSUTCDATETIME()"
                                        + " ORDER BY hidden, priority DESC, id) x ON t.id = x.id"
                                : "WITH cte AS (SELECT TOP (1) id, body FROM " + q + " WITH (ROWLOCK, READPAST, UPDLOCK)"
                                        + " WHERE hidden IS NULL AND visible_at <= SYSUTCDATETIME() ORDER BY hidden, priority DESC, id) DELETE FROM cte"
                                        + " OUTPUT deleted.id, deleted.body",
                        "INSERT INTO " + q + " (priority, visible_at, enqueued_at, body) SELECT TOP (?) 0, SYSUTCDATETIME(),"
                                + " SYSUTCDATETIME(), CAST('x' AS VARBINARY(MAX)) FROM sys.all_objects a CROSS JOIN sys.all_objects b CROSS JOIN sys.all_objects c");
                case "postgresql" -> new RawLoop(
                        "INSERT INTO " + q + " (priority, visible_at, enqueued_at, body) VALUES (0, statement_timestamp(), statement_timestamp(), ?)",
                        "DELETE FROM " + q + " WHERE id = (SELECT id FROM " + q + " WHERE COALESCE(hidden, 0) < 1 AND visible_at <= statement_timestamp()"
                                + " ORDER BY hidden, priority DESC, id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, body",
                        "INSERT INTO " + q + " (priority, visible_at, enqueued_at, body) SELECT 0, statement_timestamp(),"
                                + " statement_timestamp(), '\\x78'::bytea FROM generate_series(1, ?)");
                default -> new RawLoop(
                        "INSERT INTO " + q + " (priority, visible_at, enqueued_at, body) VALUES (0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, ?)",
                        "SELECT id, body FROM OLD TABLE (DELETE FROM " + q + " WHERE id IN (SELECT id FROM " + q
                                + " WHERE hidden IS NULL AND visible_at <= CURRENT_TIMESTAMP ORDER BY hidden, priority DESC, id FETCH FIRST 1 ROW ONLY"
                                + " FOR UPDATE SKIP LOCKED))",
                        "INSERT INTO " + q + " (priority, visible_at, enqueued_at, body) SELECT 0, CURRENT_TIMESTAMP,"
                                + " CURRENT_TIMESTAMP, X'78' FROM SYSTEM_RANGE(1, ?)");
            };
        }

        int insert(Connection c) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement(insertSql)) {
                ps.setBytes(1, BODY);
                return ps.executeUpdate();
            }
        }

        int dequeue(Connection c) throws SQLException {
            c.setAutoCommit(false);
            int got = 0;
            try (PreparedStatement ps = c.prepareStatement(dequeueSql); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rs.getLong(1);
                    rs.getBytes(2);
                    got++;
                }
            }
            c.commit();
            return got;
        }
    }

    // ---- measuring ----------------------------------------------------------------------------

    @FunctionalInterface
    private interface Step {
        /** Does one transaction's work; returns the messages it handled (0: the queue is empty). */
        int run(Connection c) throws SQLException;
    }

    @FunctionalInterface
    private interface Measurement {
        double rate() throws Exception;
    }

    /** Runs {@code step} on {@code threads} connections for the measuring time; messages per second. */
    private double measure(int threads, Step step) throws Exception {
        LongAdder done = new LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            long start = System.nanoTime();
            long end = start + MEASURE_NANOS;
            for (int i = 0; i < threads; i++) {
                workers.add(pool.submit(() -> {
                    try (Connection c = db.connect()) {
                        while (System.nanoTime() < end) {
                            int n = step.run(c);
                            if (n == 0) {
                                break; // drained: the figure is what was done until then
                            }
                            done.add(n);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) {
                w.get();
            }
            return done.sum() / ((System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Publishing to a topic with {@code n} subscriptions against {@code n} sends, one transaction each. */
    private void fanOut(Connection c, int n) throws Exception {
        Topic topic = new Topic(queue.dialect(), queue.name().table() + "_t");
        topic.createIfMissing(c);
        List<QueueTable> queues = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            QueueTable q = new QueueTable(queue.dialect(), topic.queueOf("s" + i).toString(), null, RetryPolicy.DEFAULT);
            q.createIfMissing(c);
            topic.subscribe(c, "s" + i, null);
            queues.add(q);
        }
        try {
            OutgoingMessage m = OutgoingMessage.bytes(BODY).header("type", "price").build();
            compare("fan-out-" + n, 4, () -> measure(4, conn -> {
                conn.setAutoCommit(false);
                int written = topic.publish(conn, m).size();
                conn.commit();
                return written;
            }), () -> measure(4, conn -> {
                conn.setAutoCommit(false);
                for (QueueTable q : queues) {
                    q.send(conn, m);
                }
                conn.commit();
                return queues.size();
            }));
        } finally {
            try (Statement s = c.createStatement()) {
                for (int i = 0; i < n; i++) {
                    topic.unsubscribe(c, "s" + i);
                    s.execute("DROP TABLE " + queue.dialect().qualified(queues.get(i).name()));
                    s.execute("DROP TABLE " + queue.dialect().qualified(queues.get(i).deadLetterName()));
                }
            }
        }
    }

    /** Empties the queue and fills it with enough ready rows that a measurement does not drain it. */
    private double refilled(Connection c, Measurement m) throws Exception {
        refill(c, 150_000);
        return m.rate();
    }

    /**
     * Empties the queue and sends 40,000 messages whose ordering keys go round-robin over
     * {@code keys}, so each key's first message is near the front, as when keys take turns.
     */
    private double keyed(Connection c, int keys, Measurement m) throws Exception {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + table);
        }
        List<OutgoingMessage> chunk = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            chunk.add(OutgoingMessage.bytes(BODY).orderingKey("k" + i % keys).build());
            if (chunk.size() == 1_000) {
                queue.sendAll(c, chunk);
                chunk.clear();
            }
        }
        analyze(c);
        return m.rate();
    }

    private void refill(Connection c, int rows) throws SQLException {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + table);
        }
        refillKeeping(c, rows);
    }

    /** Adds {@code rows} ready rows to what the queue holds. */
    private void refillKeeping(Connection c, int rows) throws SQLException {
        c.setAutoCommit(true);
        try (PreparedStatement ps = c.prepareStatement(raw.fillSql())) {
            ps.setInt(1, rows);
            ps.executeUpdate();
        }
        analyze(c);
    }

    private void analyze(Connection c) throws SQLException {
        if (queue.dialect().name().equals("postgresql")) {
            try (Statement s = c.createStatement()) {
                s.execute("VACUUM ANALYZE " + table);
            }
        }
    }

    /** Warm-up, then two alternating rounds; the better figure of each side. */
    private void compare(String name, int threads, Measurement engine, Measurement baseline) throws Exception {
        engine.rate(); // warm-up: JIT, statement caches, buffer pool
        double e = 0, r = 0;
        for (int round = 0; round < 2; round++) {
            r = Math.max(r, baseline.rate());
            e = Math.max(e, engine.rate());
        }
        print(name, threads, e, r);
    }

    private void print(String name, int threads, double engine, double raw) {
        System.out.println(String.format(Locale.ROOT, "BENCH case=%s db=%s threads=%d engine=%.0f/s raw=%.0f/s ratio=%.2f",
                name, db.name(), threads, engine, raw, engine / raw));
    }

    /**
     * Claim cost against queue depth: 5,000 claims (one per transaction, 500 at a time, topped up
     * in between) from a queue of about 1,000 ready rows, then from about 1,000,000.
     */
    private void deepQueue(Connection c) throws Exception {
        double shallow = claimRateAtDepth(c, 1_000);
        double deep = claimRateAtDepth(c, 1_000_000);
        print("deep-queue-1M-vs-1k", 1, deep, shallow);
    }

    /**
     * Claim cost with rows ahead that are not ready: 100,000 delayed and 100,000 leased rows of a
     * higher priority and lower ids than the 1,000 ready ones, against the same claims from a
     * queue of only the ready rows.
     */
    private void notReadyAhead(Connection c) throws Exception {
        double clean = claimRateAtDepth(c, 1_000);
        double behind = claimRateAtDepth(c, 1_000, () -> {
            fillAhead(c, 100_000, false);
            fillAhead(c, 100_000, true);
        });
        print("not-ready-ahead", 1, behind, clean);
    }

    /**
     * Rows that are not ready, written by the engine itself at priority 9: sent with a delay of a
     * day, or sent and then leased for a day (an attempt counted, a token), a thousand at a time.
     */
    private void fillAhead(Connection c, int rows, boolean leased) throws SQLException {
        c.setAutoCommit(false);
        List<OutgoingMessage> batch = new ArrayList<>(QueueTable.MAX_CLAIM);
        for (int sent = 0; sent < rows; sent += batch.size()) {
            batch.clear();
            for (int i = 0; i < Math.min(QueueTable.MAX_CLAIM, rows - sent); i++) {
                batch.add(OutgoingMessage.bytes(BODY).priority(9).delay(leased ? Duration.ZERO : Duration.ofDays(1)).build());
            }
            queue.sendAll(c, batch);
            if (leased) {
                queue.lease(c, batch.size(), Duration.ofDays(1));
            }
            c.commit();
        }
        c.setAutoCommit(true);
    }

    @FunctionalInterface
    private interface Setup {
        void run() throws SQLException;
    }

    private double claimRateAtDepth(Connection c, int depth) throws Exception {
        return claimRateAtDepth(c, depth, () -> { });
    }

    /** Empties the queue, runs {@code ahead} (rows that sort before the ready ones), then fills {@code depth} ready rows. */
    private double claimRateAtDepth(Connection c, int depth, Setup ahead) throws Exception {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + table);
        }
        ahead.run();
        refillKeeping(c, depth);
        claimTimed(c, 500); // warm-up
        long nanos = 0;
        int claims = 0;
        for (int round = 0; round < 10; round++) {
            topUp(c, 500);
            long start = System.nanoTime();
            queue.revealDue(c); // a poller's, once a second: here once per 500 claims, more often
            claims += claimTimed(c, 500);
            nanos += System.nanoTime() - start;
        }
        return claims / (nanos / 1e9);
    }

    private int claimTimed(Connection c, int n) throws SQLException {
        int got = 0;
        for (int i = 0; i < n; i++) {
            got += engineClaim(c, 1);
        }
        c.setAutoCommit(true);
        return got;
    }

    private void topUp(Connection c, int rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(raw.fillSql())) {
            ps.setInt(1, rows);
            ps.executeUpdate();
        }
    }
}
