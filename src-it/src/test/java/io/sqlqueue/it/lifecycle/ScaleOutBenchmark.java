package io.sqlqueue.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.MachineCpu;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Scale-out: 1, 2 and 4 Payara Micro instances (forked, full JIT, see {@link MicroProcess}), each
 * with the sample's {@code OrderProcessor} (8 deliveries at a time, one order per container
 * transaction, its row and its journal row written in it, through the sample's JDBC resource),
 * draining one backlog of {@code bench.scale.messages} (50,000) orders from one PostgreSQL, in one
 * run, after a warm-up drain by all four. Every consumer is paused while a backlog is written; those
 * of the size measured are resumed together. Prints per size:
 *
 * <pre>
 * BENCH case=scale-out db=postgresql instances=n threads=8 messages=m msg_per_s=r ratio_to_1=x
 *   receive_p99_ms=… processing_p99_ms=… db_cpu_us=… machine_cpu_us=…
 * </pre>
 *
 * receive is, per delivery thread, from one delivery's end to the next message's claim (the
 * journal's completed and claimed times, both the server's clock); db_cpu_us the CPU time of the
 * PostgreSQL server's processes per message (when it runs on this machine; -1 otherwise);
 * machine_cpu_us the whole machine's busy CPU time per message. A benchmark, not a test: run by
 * the bench profile (mvn -B -Pbench -pl src-it verify -Dit.test=ScaleOutBenchmark) with
 * SQLQUEUE_PG_URL set; it skips itself without it.
 */
class ScaleOutBenchmark {

    private static final int[] SIZES = {1, 2, 4};
    private static final String QUEUE = "orders_queue"; // the sample's
    private static final String JOURNAL = QUEUE + "_journal";
    private static final String WAR = "sample";
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(5);

    @Test
    void drainOneBacklogWithOneTwoAndFourServers() throws Exception {
        String url = System.getenv("SQLQUEUE_PG_URL");
        assumeTrue(url != null && !url.isBlank(), "SQLQUEUE_PG_URL is not set: the scale-out benchmark needs PostgreSQL");
        String user = System.getenv("SQLQUEUE_PG_USER");
        String password = System.getenv("SQLQUEUE_PG_PASSWORD");
        int messages = Integer.getInteger("bench.scale.messages", 50_000);
        File microJar = LifecycleIT.file("it.micro.jar", "Payara Micro");
        File rar = LifecycleIT.file("it.rar", "the adapter's .rar");
        File war = LifecycleIT.file("it.sample.war", "the sample's .war");
        File driver = LifecycleIT.file("it.pg.jar", "the PostgreSQL driver");
        File tmp = MicroProcess.workDirectory("scale-out-micro");

        try (Connection db = DriverManager.getConnection(url, user, password)) {
            dropSampleTables(db);
            List<MicroProcess> servers = new ArrayList<>();
            try {
                for (int i = 0; i < SIZES[SIZES.length - 1]; i++) {
                    Map<String, String> environment = new HashMap<>(Map.of("SQLQUEUE_SAMPLE_URL", url,
                            "SQLQUEUE_SAMPLE_USER", user, "SQLQUEUE_SAMPLE_PASSWORD", password,
                            "SQLQUEUE_SAMPLE_DATASOURCE", "org.postgresql.ds.PGSimpleDataSource"));
                    servers.add(MicroProcess.start(microJar, tmp, environment, List.of(driver), BOOT_TIMEOUT,
                            List.of("-Xmx1g")));
                    servers.get(i).deployAdapter(rar);
                }
                for (MicroProcess server : servers) {
                    server.deployWar(WAR, war); // one at a time: the sample creates its tables when it starts
                }
                for (MicroProcess server : servers) {
                    awaitFirstPollThenPause(server);
                }
                drain(db, servers, messages / 5); // warm-up: every server's JIT, pools and caches
                System.out.println("scale-out warm-up, not a result: " + lastLine.replace("BENCH ", ""));
                double single = 0;
                for (int size : SIZES) {
                    double rate = drain(db, servers.subList(0, size), messages);
                    if (size == 1) {
                        single = rate;
                    }
                    System.out.println(lastLine.replace("ratio_to_1=?", String.format("ratio_to_1=%.2f", rate / single)));
                }
            } finally {
                for (MicroProcess server : servers) {
                    server.close();
                }
            }
        }
    }

    /** The BENCH line of the last drain, its ratio to one server left to fill in. */
    private static String lastLine;

    /**
     * A server's consumer has looked at the queue once (its first look, which creates the queue's
     * tables, comes a few seconds after its activation); then it waits, paused, for its turn.
     */
    private static void awaitFirstPollThenPause(MicroProcess server) throws Exception {
        Await.until("the sample's consumer polling", Duration.ofMinutes(2), () -> {
            try {
                return server.consumers("status", QUEUE).stream().anyMatch(c -> !c.endsWith(" polls=0"));
            } catch (IllegalStateException notYetActivated) {
                return false;
            }
        });
        server.consumers("pause", QUEUE);
    }

    /**
     * One backlog, written while every consumer is paused, drained by these servers, resumed
     * together and paused again afterwards; returns messages per second and leaves the BENCH line
     * in {@link #lastLine}.
     */
    private static double drain(Connection db, List<MicroProcess> servers, int messages) throws Exception {
        execute(db, "TRUNCATE processed_orders, \"" + JOURNAL + "\"");
        QueueTable queue = QueueTable.open(db, QUEUE);
        assertEquals(0, count(db, "SELECT COUNT(*) FROM \"" + QUEUE + "\""), "an empty queue");
        db.setAutoCommit(false);
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 1; i <= messages; i++) {
            batch.add(OutgoingMessage.text("{\"orderId\":" + i + "}").build());
            if (batch.size() == 1000 || i == messages) {
                queue.sendAll(db, batch);
                batch.clear();
            }
        }
        db.commit();
        db.setAutoCommit(true);
        execute(db, "VACUUM ANALYZE \"" + QUEUE + "\"");

        long databaseCpu = databaseCpuTicks(db);
        long machineCpu = MachineCpu.busyTicks();
        long start = System.nanoTime();
        for (MicroProcess server : servers) {
            server.consumers("resume", QUEUE);
        }
        Await.until(messages + " orders processed by " + servers.size() + " servers", Duration.ofMinutes(15),
                () -> count(db, "SELECT COUNT(*) FROM processed_orders") >= messages);
        double seconds = (System.nanoTime() - start) / 1e9;
        for (MicroProcess server : servers) {
            server.consumers("pause", QUEUE);
        }
        double databaseCpuUs = databaseCpu < 0 ? -1
                : MachineCpu.microsPerMessage(databaseCpuTicks(db) - databaseCpu, messages);
        double machineCpuUs = MachineCpu.microsPerMessage(MachineCpu.busyTicks() - machineCpu, messages);

        assertEquals(messages, count(db, "SELECT COUNT(DISTINCT message_id) FROM processed_orders"), "each order once");
        assertEquals(messages, count(db, "SELECT COUNT(*) FROM processed_orders"), "and none twice");
        double rate = messages / seconds;
        String journal = "\"" + JOURNAL + "\"";
        double receiveP99 = milliseconds(db, "SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY receive_ms) FROM"
                + " (SELECT EXTRACT(EPOCH FROM claimed_at - LAG(completed_at) OVER (PARTITION BY consumer"
                + " ORDER BY completed_at)) * 1000 AS receive_ms FROM " + journal + ") AS r WHERE receive_ms IS NOT NULL");
        double processingP99 = milliseconds(db, "SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM"
                + " completed_at - claimed_at) * 1000) FROM " + journal);
        long servedBy = count(db, "SELECT COUNT(DISTINCT split_part(consumer, '@', 1)) FROM " + journal);
        lastLine = String.format("BENCH case=scale-out db=postgresql instances=%d threads=8 messages=%d"
                + " msg_per_s=%.0f ratio_to_1=? receive_p99_ms=%.1f processing_p99_ms=%.1f db_cpu_us=%.0f"
                + " machine_cpu_us=%.0f servers_that_delivered=%d", servers.size(), messages, rate, receiveP99,
                processingP99, databaseCpuUs, machineCpuUs, servedBy);
        return rate;
    }

    /**
     * CPU time of the PostgreSQL server (the postmaster and its children) in clock ticks, or -1 when
     * it does not run on this machine: this connection's backend is a child of the postmaster.
     */
    private static long databaseCpuTicks(Connection db) throws Exception {
        long backend = count(db, "SELECT pg_backend_pid()");
        Path stat = Path.of("/proc", Long.toString(backend), "stat");
        if (!Files.exists(stat)) {
            return -1;
        }
        String postmaster = fields(stat)[1];
        long ticks = 0;
        try (var processes = Files.list(Path.of("/proc"))) {
            for (Path p : processes.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String[] f = fields(p.resolve("stat"));
                    if (p.getFileName().toString().equals(postmaster) || f[1].equals(postmaster)) {
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
                    }
                } catch (IOException ended) {
                    // a process that ended while we looked
                }
            }
        }
        return ticks;
    }

    /** /proc/<pid>/stat's fields after the command's parentheses: state, ppid, …, utime (11), stime (12). */
    private static String[] fields(Path stat) throws IOException {
        String s = Files.readString(stat);
        return s.substring(s.lastIndexOf(')') + 2).split(" ");
    }

    /** The sample's tables from an earlier run go: the sample and its beans create them anew. */
    private static void dropSampleTables(Connection db) throws SQLException {
        for (String table : List.of("orders", "processed_orders", "customer_ledger", "large_orders", QUEUE,
                QUEUE + "_dlq", JOURNAL)) {
            execute(db, "DROP TABLE IF EXISTS \"" + table + "\"");
        }
    }

    private static void execute(Connection db, String sql) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute(sql);
        }
    }

    private static long count(Connection db, String sql) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    private static double milliseconds(Connection db, String sql) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getDouble(1) : -1;
        }
    }
}
