package io.sqlqueue.it.versus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.MachineCpu;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One server's comparison: at each thread count the adapter (to a {@code QueueListener} bean, and
 * to the JMS side's {@code MessageListener} bean), the JMS bean with a plain JDBC resource and the
 * JMS bean with an XA one drain the same number of messages, one at a time in
 * turn, each into the same table on the same PostgreSQL. A drain fills its queue first (the
 * adapter's table in one transaction; the JMS queue through the filler application, 1,000 per
 * transaction), then deploys its consumer and waits for the last row. Its rate is timed by the
 * rows' own timestamps, first to last, so deploying does not count; its CPU is the whole
 * machine's busy time between those two instants (sampled every 50 ms and interpolated), per
 * message, since the adapter's queue work runs in the database and the broker's in the server.
 * A warm-up drain of each side at 4 threads comes first and is not printed.
 */
final class Comparison {

    private static final Duration DRAIN_PATIENCE = Duration.ofMinutes(15);

    private final BrokerServer server;
    private final Settings settings;
    private final int messages;
    private final HttpClient http = HttpClient.newHttpClient();

    Comparison(BrokerServer server, Settings settings, int messages) {
        this.server = server;
        this.settings = settings;
        this.messages = messages;
    }

    /** Runs every thread count and returns the BENCH lines, three per thread count. */
    List<String> run(int... threadCounts) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(Work.TABLE_DDL);
            QueueTable.open(c, ConsumerArchive.ADAPTER_QUEUE).createIfMissing(c);
            try (ResultSet rs = s.executeQuery("SHOW fsync")) {
                rs.next();
                System.out.println("vs-jms: " + server.name() + ", PostgreSQL fsync=" + rs.getString(1));
            }
        }
        for (Mode mode : Mode.values()) {
            drain(mode, 4, Math.max(1000, messages / 4));
        }
        List<String> lines = new ArrayList<>();
        for (int threads : threadCounts) {
            Map<Mode, Drain> drains = new EnumMap<>(Mode.class);
            for (Mode mode : Mode.values()) {
                drains.put(mode, drain(mode, threads, messages));
            }
            Drain adapter = drains.get(Mode.ADAPTER);
            for (Mode jmsMode : List.of(Mode.JMS, Mode.JMS_XA)) {
                Drain jms = drains.get(jmsMode);
                String line = String.format(Locale.ROOT, "BENCH case=vs-jms server=%s broker=%s mode=%s threads=%d"
                        + " messages=%d attempt_counting=%s adapter=%.0f/s jms=%.0f/s ratio=%.2f adapter_cpu_us=%.0f"
                        + " jms_cpu_us=%.0f cpu_ratio=%.2f", server.name(), server.broker(), jmsMode.label, threads, messages,
                        settings.attemptCounting().isEmpty() ? "default" : settings.attemptCounting(),
                        adapter.rate(), jms.rate(), adapter.rate() / jms.rate(), adapter.cpuMicros(), jms.cpuMicros(),
                        adapter.cpuMicros() / jms.cpuMicros());
                System.out.println(line);
                lines.add(line);
            }
            Drain listener = drains.get(Mode.ADAPTER_JMS);
            String line = String.format(Locale.ROOT, "BENCH case=vs-jms-listener server=%s threads=%d messages=%d"
                    + " attempt_counting=%s message_listener=%.0f/s queue_listener=%.0f/s ratio=%.2f cpu_ratio=%.2f"
                    + " jms=%.0f/s ratio_to_jms=%.2f", server.name(), threads, messages,
                    settings.attemptCounting().isEmpty() ? "default" : settings.attemptCounting(), listener.rate(),
                    adapter.rate(), listener.rate() / adapter.rate(), listener.cpuMicros() / adapter.cpuMicros(),
                    drains.get(Mode.JMS).rate(), listener.rate() / drains.get(Mode.JMS).rate());
            System.out.println(line);
            lines.add(line);
        }
        return lines;
    }

    /** A drain's messages per second and whole-machine CPU microseconds per message. */
    record Drain(double rate, double cpuMicros) {
    }

    private Drain drain(Mode mode, int threads, int n) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE vs_done");
            s.execute("VACUUM vs_done");
            s.execute("VACUUM \"" + ConsumerArchive.ADAPTER_QUEUE + "\"");
            if (mode.adapter()) {
                fillAdapterQueue(c, n);
            }
        }
        if (!mode.adapter()) {
            fillJmsQueue(n);
        }
        String name = "vs-" + mode.label + "-" + threads;
        List<long[]> samples = new ArrayList<>(); // {epoch millis, busy ticks}
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> sample(samples), 0, 50, TimeUnit.MILLISECONDS);
        long[] span;
        try {
            server.deploy(ConsumerArchive.write(server, settings, mode, threads, name), name);
            try (Connection c = connect()) {
                Await.until(n + " messages done by " + name, DRAIN_PATIENCE,
                        () -> count(c, "SELECT COUNT(*) FROM vs_done") >= n);
                assertEquals(n, count(c, "SELECT COUNT(*) FROM vs_done"), name + ": rows (a duplicate adds one)");
                assertEquals(n, count(c, "SELECT COUNT(DISTINCT n) FROM vs_done"), name + ": messages done");
                if (mode.adapter()) {
                    QueueTable queue = QueueTable.open(c, ConsumerArchive.ADAPTER_QUEUE);
                    assertEquals(0, count(c, "SELECT COUNT(*) FROM \"" + queue.name().table() + "\""),
                            name + ": left in the queue");
                    assertEquals(0, count(c, "SELECT COUNT(*) FROM \"" + queue.deadLetterName().table() + "\""),
                            name + ": dead letters");
                }
                span = span(c);
            }
            // the last sample after the last row
            long last = span[1];
            Await.until("a CPU sample after the drain", Duration.ofSeconds(10), () -> lastSampleAt(samples) > last);
        } finally {
            sampler.shutdownNow();
            sampler.awaitTermination(10, TimeUnit.SECONDS);
            server.undeploy(name);
        }
        double seconds = (span[1] - span[0]) / 1000.0;
        double ticks = ticksAt(samples, span[1]) - ticksAt(samples, span[0]);
        Drain drain = new Drain((n - 1) / seconds, MachineCpu.microsPerMessage(ticks, n - 1));
        System.out.println(String.format(Locale.ROOT, "vs-jms: %s %s threads=%d messages=%d %.0f/s cpu_us=%.0f",
                server.name(), mode.label, threads, n, drain.rate(), drain.cpuMicros()));
        return drain;
    }

    private static void fillAdapterQueue(Connection c, int n) throws SQLException {
        QueueTable queue = QueueTable.open(c, ConsumerArchive.ADAPTER_QUEUE);
        c.setAutoCommit(false);
        List<OutgoingMessage> chunk = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            chunk.add(OutgoingMessage.text(Integer.toString(i)).build());
            if (chunk.size() == 1000 || i == n - 1) {
                queue.sendAll(c, chunk);
                chunk.clear();
            }
        }
        c.commit();
        c.setAutoCommit(true);
    }

    private void fillJmsQueue(int n) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(server.http().resolve("vs-fill/fill?factory="
                + URLEncoder.encode(server.jmsConnectionFactory(), StandardCharsets.UTF_8) + "&queue="
                + URLEncoder.encode(server.jmsQueue(), StandardCharsets.UTF_8) + "&count=" + n))
                .timeout(Duration.ofMinutes(10)).POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals("sent " + n, response.body().trim(), "the filler's answer (HTTP " + response.statusCode() + ")");
    }

    private static void sample(List<long[]> samples) {
        try {
            long ticks = MachineCpu.busyTicks();
            synchronized (samples) {
                samples.add(new long[] {System.currentTimeMillis(), ticks});
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long lastSampleAt(List<long[]> samples) {
        synchronized (samples) {
            return samples.isEmpty() ? Long.MIN_VALUE : samples.get(samples.size() - 1)[0];
        }
    }

    /** Busy ticks at an instant, interpolated between the samples around it. */
    private static double ticksAt(List<long[]> samples, long millis) {
        synchronized (samples) {
            for (int i = 1; i < samples.size(); i++) {
                long[] before = samples.get(i - 1);
                long[] after = samples.get(i);
                if (before[0] <= millis && millis <= after[0]) {
                    double share = after[0] == before[0] ? 0 : (millis - before[0]) / (double) (after[0] - before[0]);
                    return before[1] + share * (after[1] - before[1]);
                }
            }
        }
        throw new IllegalStateException("no CPU samples around " + millis);
    }

    /** The first and last row's done_at, in epoch milliseconds (the database's clock is this machine's). */
    private static long[] span(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT (EXTRACT(EPOCH FROM MIN(done_at)) * 1000)::BIGINT,"
                        + " (EXTRACT(EPOCH FROM MAX(done_at)) * 1000)::BIGINT FROM vs_done")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(settings.url(), settings.user(), settings.password());
    }
}
