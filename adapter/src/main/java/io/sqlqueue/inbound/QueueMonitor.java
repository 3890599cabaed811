package io.sqlqueue.inbound;

import io.sqlqueue.engine.QueueStats;
import io.sqlqueue.management.PlatformMBeans;
import io.sqlqueue.management.QueueMXBean;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.ObjectName;

/**
 * A queue's counts for JMX, read through the connections of one of the activations consuming it
 * and kept for a second, so that any number of readers cost the database one query a second at
 * most. One per queue however many beans consume it (see {@link #register}).
 */
final class QueueMonitor implements QueueMXBean {

    private static final long FRESH_NANOS = Duration.ofSeconds(1).toNanos();
    private static final QueueStats UNKNOWN = new QueueStats(-1, -1, -1, -1, Duration.ZERO);
    /** The registered monitors by queue; guarded by itself. */
    private static final Map<String, QueueMonitor> BY_QUEUE = new HashMap<>();

    private final String queue;
    private final List<QueueActivation> consumers = new CopyOnWriteArrayList<>();
    private ObjectName name;
    private QueueStats stats = UNKNOWN;
    private long readAt;

    private QueueMonitor(String queue) {
        this.queue = queue;
    }

    /** Counts {@code activation} among the queue's consumers; the first registers the queue's bean. */
    static void register(QueueActivation activation) {
        synchronized (BY_QUEUE) {
            QueueMonitor m = BY_QUEUE.computeIfAbsent(activation.spec.getQueue(), QueueMonitor::new);
            m.consumers.add(activation);
            if (m.name == null) {
                m.name = PlatformMBeans.register(m, "Queue", "name", m.queue);
            }
        }
    }

    /** The last consumer of a queue to go unregisters its bean. */
    static void unregister(QueueActivation activation) {
        synchronized (BY_QUEUE) {
            QueueMonitor m = BY_QUEUE.get(activation.spec.getQueue());
            if (m != null && m.consumers.remove(activation) && m.consumers.isEmpty()) {
                PlatformMBeans.unregister(m.name);
                BY_QUEUE.remove(m.queue);
            }
        }
    }

    private synchronized QueueStats stats() {
        if (readAt == 0 || System.nanoTime() - readAt > FRESH_NANOS) {
            stats = UNKNOWN; // unreadable: the consumers' lastError and the log say why
            for (QueueActivation a : consumers) {
                try (Connection c = a.connections.plain()) {
                    stats = a.table(c).stats(c);
                    break;
                } catch (SQLException | RuntimeException e) {
                    // try the next consumer's connections
                }
            }
            readAt = System.nanoTime();
        }
        return stats;
    }

    @Override
    public String getName() {
        return queue;
    }

    @Override
    public long getReady() {
        return stats().ready();
    }

    @Override
    public long getDelayed() {
        return stats().delayed();
    }

    @Override
    public long getLeased() {
        return stats().leased();
    }

    @Override
    public long getDeadLettered() {
        return stats().deadLettered();
    }

    @Override
    public long getOldestReadyAgeMillis() {
        return stats().oldestReadyAge().toMillis();
    }
}
