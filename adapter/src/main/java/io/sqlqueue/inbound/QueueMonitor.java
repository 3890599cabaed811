package io.sqlqueue.inbound;

import io.sqlqueue.engine.AuditTrail;
import io.sqlqueue.engine.DeadLetterReason;
import io.sqlqueue.engine.DeadLetters;
import io.sqlqueue.engine.QueueStats;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.management.DeadLetterViews;
import io.sqlqueue.management.HeaderLines;
import io.sqlqueue.management.JmxCaller;
import io.sqlqueue.management.PlatformMBeans;
import io.sqlqueue.management.QueueMXBean;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import javax.management.ObjectName;

/**
 * A queue's counts for JMX, read through the connections of one of the activations consuming it
 * and kept for a second, so that any number of readers cost the database one query a second at
 * most. One per queue however many beans consume it (see {@link #register}).
 */
final class QueueMonitor implements QueueMXBean {

    private static final Logger LOG = Logger.getLogger(QueueMonitor.class.getName());
    private static final long FRESH_NANOS = Duration.ofSeconds(1).toNanos();
    private static final QueueStats UNKNOWN = new QueueStats(-1, -1, -1, -1, Duration.ZERO, -1);
    /** The registered monitors by database and queue (see {@link #key}); guarded by itself. */
    private static final Map<String, QueueMonitor> BY_QUEUE = new HashMap<>();

    private final String database;
    private final String queue;
    private final List<QueueActivation> consumers = new CopyOnWriteArrayList<>();
    private ObjectName name;
    private QueueStats stats = UNKNOWN;
    private long readAt;

    private QueueMonitor(String database, String queue) {
        this.database = database;
        this.queue = queue;
    }

    /**
     * A queue is its database and its name: two {@code orders} queues of two databases in one
     * server are two beans, each reading and changing its own tables.
     */
    private static String key(QueueActivation activation) {
        return activation.connections.database() + " " + activation.settings.queue();
    }

    /** Counts {@code activation} among the queue's consumers; the first registers the queue's bean. */
    static void register(QueueActivation activation) {
        synchronized (BY_QUEUE) {
            QueueMonitor m = BY_QUEUE.computeIfAbsent(key(activation),
                    k -> new QueueMonitor(activation.connections.database(), activation.settings.queue()));
            m.consumers.add(activation);
            if (m.name == null) {
                m.name = PlatformMBeans.register(m, "Queue", "database", m.database, "name", m.queue);
            }
        }
    }

    /** The last consumer of a queue to go unregisters its bean. */
    static void unregister(QueueActivation activation) {
        synchronized (BY_QUEUE) {
            QueueMonitor m = BY_QUEUE.get(key(activation));
            if (m != null && m.consumers.remove(activation) && m.consumers.isEmpty()) {
                PlatformMBeans.unregister(m.name);
                BY_QUEUE.remove(key(activation));
            }
        }
    }

    /** Runs {@code operation} on a connection of the first consumer whose database answers. */
    private <T> T withTable(TableOperation<T> operation) {
        SQLException failure = null;
        for (QueueActivation a : consumers) {
            if (!a.isOpen()) {
                continue; // not before its poller: no connection (nor data source look-up) during its grace
            }
            try (Connection c = a.connections.plain()) {
                return operation.run(c, a.table());
            } catch (SQLException e) {
                failure = e;
            }
        }
        // JMX clients may not have the driver's exception classes: report the text only
        throw new IllegalStateException("queue " + queue + ": " + (failure != null ? failure.getMessage()
                : "no consumer has reached the database yet"));
    }

    @FunctionalInterface
    private interface TableOperation<T> {
        T run(Connection c, QueueTable table) throws SQLException;
    }

    private synchronized QueueStats stats() {
        if (readAt == 0 || System.nanoTime() - readAt > FRESH_NANOS) {
            stats = UNKNOWN; // unreadable: the consumers' lastError and the log say why
            for (QueueActivation a : consumers) {
                if (!a.isOpen()) {
                    continue; // as in withTable
                }
                try (Connection c = a.connections.plain()) {
                    stats = a.table().stats(c);
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
    public String getDatabase() {
        return database;
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
    public long getExpired() {
        return stats().expired();
    }

    @Override
    public long getOldestReadyAgeMillis() {
        return stats().oldestReadyAge().toMillis();
    }

    @Override
    public int requeueDeadLetters(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, not " + max);
        }
        String actor = JmxCaller.name();
        int moved = withTable((c, table) -> table.deadLetters().requeue(c, max, actor));
        LOG.info(() -> actor + " requeued " + moved + " dead letters of " + queue);
        consumers.forEach(QueueActivation::wake); // deliver them now, not at the next poll
        return moved;
    }

    @Override
    public DeadLetterViews.Group[] deadLetterGroups() {
        return withTable((c, table) -> table.deadLetters().groups(c)).stream().map(DeadLetterViews.Group::new)
                .toArray(DeadLetterViews.Group[]::new);
    }

    @Override
    public DeadLetterViews.Row[] deadLetterPage(boolean wholeTable, String reason, String errorClass, int offset,
            int limit) {
        DeadLetterReason group = wholeTable ? null : new DeadLetterReason(reason, errorClass);
        return withTable((c, table) -> table.deadLetters().list(c, group, offset, limit)).stream()
                .map(DeadLetterViews.Row::new).toArray(DeadLetterViews.Row[]::new);
    }

    @Override
    public DeadLetterViews.Message deadLetter(long id) {
        return withTable((c, table) -> table.deadLetters().read(c, id)).map(DeadLetterViews.Message::new).orElse(null);
    }

    @Override
    public DeadLetterViews.Edited editedDeadLetter(long id) {
        return withTable((c, table) -> table.deadLetters().readEdited(c, id)).map(DeadLetterViews.Edited::new)
                .orElse(null);
    }

    @Override
    public int requeueSelectedDeadLetters(long[] ids, String actor) {
        List<Long> selection = selection(ids);
        int moved = withTable((c, table) -> table.deadLetters().requeue(c, selection, actor));
        consumers.forEach(QueueActivation::wake);
        return moved;
    }

    @Override
    public int requeueDeadLetterGroup(String reason, String errorClass, String actor) {
        DeadLetterReason group = new DeadLetterReason(reason, errorClass);
        int moved = withTable((c, table) -> table.deadLetters().requeue(c, group, actor));
        consumers.forEach(QueueActivation::wake);
        return moved;
    }

    @Override
    public long requeueEditedDeadLetter(long id, String body, String headers, String actor) {
        Map<String, String> headerMap = headers == null ? null : HeaderLines.parse(headers);
        long newId = withTable((c, table) -> table.deadLetters().requeueEdited(c, id, body, headerMap, actor))
                .orElse(0);
        consumers.forEach(QueueActivation::wake);
        return newId;
    }

    @Override
    public int deleteSelectedDeadLetters(long[] ids, String actor) {
        List<Long> selection = selection(ids);
        return withTable((c, table) -> table.deadLetters().delete(c, selection, actor));
    }

    @Override
    public int deleteDeadLetterGroup(String reason, String errorClass, String actor) {
        DeadLetterReason group = new DeadLetterReason(reason, errorClass);
        return withTable((c, table) -> table.deadLetters().delete(c, group, actor));
    }

    @Override
    public DeadLetterViews.Audit[] auditTrail(int limit) {
        if (limit < 1 || limit > DeadLetters.MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1 to " + DeadLetters.MAX_PAGE + ", not " + limit);
        }
        return withTable((c, table) -> {
            AuditTrail audit = table.deadLetters().auditTrail();
            audit.createIfMissing(c); // a table of an earlier release gains the columns read here
            return audit.recent(c, table.name().toString(), limit);
        }).stream().map(DeadLetterViews.Audit::new).toArray(DeadLetterViews.Audit[]::new);
    }

    /** The ids of a JMX call as the engine takes them; the engine checks their number. */
    private static List<Long> selection(long[] ids) {
        if (ids == null) {
            throw new IllegalArgumentException("ids must be given");
        }
        return Arrays.stream(ids).boxed().toList();
    }

    @Override
    public boolean removeSubscription() {
        ActivationSettings.Subscription subscribed = consumers.stream().map(a -> a.settings.subscription())
                .filter(Objects::nonNull).findFirst().orElse(null);
        if (subscribed == null) {
            return false;
        }
        String topic = subscribed.topic(), subscription = subscribed.name();
        boolean removed = withTable((c, table) -> new Topic(table.dialect(), topic).unsubscribe(c, subscription));
        LOG.info(() -> "subscription " + subscription + " to topic " + topic + (removed ? " removed" : " was not there"));
        return removed;
    }

    @Override
    public int purgeDeadLetters(String olderThan) {
        Duration age;
        try {
            age = Duration.parse(olderThan == null ? "" : olderThan.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("olderThan must be an ISO-8601 duration such as P7D or PT12H, not '"
                    + olderThan + "'");
        }
        if (age.isNegative()) {
            throw new IllegalArgumentException("olderThan must not be negative: " + olderThan);
        }
        String actor = JmxCaller.name();
        int purged = withTable((c, table) -> table.deadLetters().purgeFailedBefore(c, Instant.now().minus(age), actor));
        LOG.info(() -> actor + " purged " + purged + " dead letters of " + queue + " older than " + age);
        return purged;
    }
}
