package io.sqlqueue.it.bench;

import io.sqlqueue.engine.QueueTable;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * The baseline: what an application would write by hand without the adapter. Plain threads, each
 * taking a connection from the same JDBC resource per transaction, claiming one message with the
 * seeds' one-statement dequeue ({@code DELETE … FOR UPDATE SKIP LOCKED … RETURNING} on PostgreSQL,
 * reading the rows that are not hidden in the ready index's order, as the adapter's tables are
 * indexed), doing the beans' work and committing. H2 has no one-statement claim that locks only the row it
 * returns, so on H2 the raw loop claims through the engine.
 */
final class RawLoop {

    private final DataSource ds;
    private final boolean postgres;

    RawLoop(DataSource ds, String db) {
        this.ds = ds;
        this.postgres = "postgresql".equals(db);
    }

    /**
     * One transaction: claims one message of {@code queue}, tells {@code arrivals} (if any) as the
     * beans do on entry to onMessage, records it, commits. Returns its text, or null if none.
     */
    String consumeOne(String queue, Arrivals arrivals) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try {
                String text = null;
                long id = 0;
                if (postgres) {
                    String q = "\"" + queue + "\"";
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + q + " WHERE id = (SELECT id FROM "
                            + q + " WHERE COALESCE(hidden, 0) < 1 AND visible_at <= statement_timestamp()"
                            + " ORDER BY hidden, priority DESC, id LIMIT 1"
                            + " FOR UPDATE SKIP LOCKED) RETURNING id, body"); ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            id = rs.getLong(1);
                            text = new String(rs.getBytes(2), StandardCharsets.UTF_8);
                        }
                    }
                } else {
                    var claimed = QueueTable.open(c, queue).claim(c, 1);
                    if (!claimed.isEmpty()) {
                        id = claimed.get(0).id();
                        text = claimed.get(0).text();
                    }
                }
                if (text != null) {
                    if (arrivals != null) {
                        arrivals.arrived(text);
                    }
                    BenchBeans.recordDone(c, id);
                }
                c.commit();
                return text;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** {@code threads} consumers until {@code n} messages of {@code queue} committed; counted in {@code tally}. */
    void drain(String queue, int threads, long n, Tally tally) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(pool.submit(() -> {
                    while (consumeOne(queue, null) != null) {
                        tally.committed(1);
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) {
                w.get();
            }
            tally.awaitCommitted(n, Duration.ofSeconds(1)); // all there once every worker found the queue empty
        } finally {
            pool.shutdownNow();
        }
    }

    /** A consumer polling {@code queue} every millisecond until stopped, reporting to {@code arrivals}. */
    Runnable poller(String queue, Arrivals arrivals, AtomicBoolean stop) {
        return () -> {
            while (!stop.get()) {
                try {
                    if (consumeOne(queue, arrivals) == null) {
                        LockSupport.parkNanos(1_000_000);
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }
}
