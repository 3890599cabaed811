package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.logging.Logger;

/**
 * A topic: publishing a message puts a copy of it into the queue of every subscription whose
 * filter it matches, in the publisher's transaction (all or none). A subscription is durable: a row
 * in {@value #SUBSCRIPTIONS} (in the topic's schema), made by a consumer's activation or an admin,
 * that lasts until it is removed; its messages wait in the queue {@code <topic>_<subscription>},
 * which a message-driven bean consumes like any queue. A message published before a subscription
 * existed is not delivered to it: the copies are made when the message is published.
 *
 * <p><b>Transactions.</b> {@link #publish} runs in the caller's transaction, like
 * {@link QueueTable#send} (in auto-commit, in one transaction of its own); {@link #createIfMissing},
 * {@link #subscribe} and {@link #unsubscribe} commit in transactions of their own (call them on a
 * connection outside any transaction).
 *
 * <p><b>Errors.</b> Bad names and filters fail with {@link IllegalArgumentException} before any SQL
 * runs; database errors propagate as {@link SQLException}.
 *
 * <p><b>Threads.</b> Thread-safe; connections are not.
 */
public final class Topic {

    private static final Logger LOG = Logger.getLogger(Topic.class.getName());

    /** The table of every topic's subscriptions, one per schema. */
    public static final String SUBSCRIPTIONS = "sqlqueue_subscriptions";

    private final Dialect dialect;
    private final TableName name;
    private final TableName subscriptions;
    private final String table;
    /** The subscriptions' queues, by name: a publish writes to each through the engine's statements. */
    private final ConcurrentMap<String, QueueTable> queues = new ConcurrentHashMap<>();
    /** The filters of this topic's subscriptions, parsed, by their text ({@link #filter}). */
    private final ConcurrentMap<String, SubscriptionFilter> filters = new ConcurrentHashMap<>();
    private static final int MAX_CACHED_FILTERS = 256;
    /** Set once a publish has found the subscriptions table: it is not looked for again. */
    private volatile boolean subscriptionsTableSeen;
    /**
     * This topic's subscription rows (:topic, and :name for one), names compared exactly: on a
     * database whose collation ignores case, topics {@code Orders} and {@code orders} would
     * otherwise share their subscriptions.
     */
    private final SqlTemplate selectSubscriptions;
    private final SqlTemplate updateFilter;
    private final SqlTemplate deleteSubscription;

    /**
     * @param topic {@code orders} or {@code schema.orders}
     * @throws IllegalArgumentException for a name that is not a valid identifier
     */
    public Topic(Dialect dialect, String topic) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.name = parse(topic);
        this.subscriptions = TableName.parse((name.schema() == null ? "" : name.schema() + ".") + SUBSCRIPTIONS);
        this.table = dialect.qualified(subscriptions);
        String thisTopic = dialect.sameKey("topic", dialect.keyParameter("topic"));
        String thisSubscription = thisTopic + " AND " + dialect.sameKey("name", dialect.keyParameter("name"));
        this.selectSubscriptions = new SqlTemplate("SELECT name, filter FROM " + table + " WHERE " + thisTopic
                + " ORDER BY name");
        this.updateFilter = new SqlTemplate("UPDATE " + table + " SET filter = :filter WHERE " + thisSubscription);
        this.deleteSubscription = new SqlTemplate("DELETE FROM " + table + " WHERE " + thisSubscription);
    }

    /**
     * The queue of a subscription: {@code <topic>_<subscription>}, in the topic's schema.
     *
     * @throws IllegalArgumentException when a name is not valid, or the two make a queue name
     *                                  longer than {@link TableName#MAX_LENGTH}
     */
    public static TableName queueOf(String topic, String subscription) {
        TableName name = parse(topic);
        if (subscription == null || !subscription.matches("[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("subscription name '" + subscription + "' is not valid: use letters,"
                    + " digits and underscores");
        }
        String queue = name.table() + "_" + subscription;
        if (queue.length() > TableName.MAX_LENGTH) {
            throw new IllegalArgumentException("topic '" + name + "' and subscription '" + subscription + "' make the"
                    + " queue name '" + queue + "', longer than " + TableName.MAX_LENGTH + " characters");
        }
        return TableName.parse((name.schema() == null ? "" : name.schema() + ".") + queue);
    }

    /**
     * A topic's name: {@code prices} or {@code sales.prices}.
     *
     * @throws IllegalArgumentException naming the problem, for anything else
     */
    public static TableName parse(String topic) {
        try {
            return TableName.parse(topic);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("topic " + e.getMessage().replaceFirst("^queue ", ""), e);
        }
    }

    /** A topic in the connection's database. */
    public static Topic open(Connection c, String topic) throws SQLException {
        return new Topic(Dialect.of(c), topic);
    }

    public TableName name() {
        return name;
    }

    /** The queue of one of this topic's subscriptions: see {@link #queueOf(String, String)}. */
    public TableName queueOf(String subscription) {
        return queueOf(name.toString(), subscription);
    }

    /** Creates the subscriptions table where missing, and commits. */
    public void createIfMissing(Connection c) throws SQLException {
        SchemaCreation.createIfMissing(c, dialect, "sqlqueue:" + subscriptions,
                new SchemaCreation.Table(TableDefinition.SUBSCRIPTIONS, subscriptions));
    }

    /**
     * Makes (or keeps) the durable subscription, with this filter (an existing subscription takes
     * the new filter for the messages published from now on), and commits. Its queue,
     * {@link #queueOf(String)}, must exist by then: create it first ({@link QueueTable#createIfMissing}),
     * or publishes fail. Safe when several servers subscribe at once.
     *
     * @param filter a {@link SubscriptionFilter}; null or blank: every message
     */
    public void subscribe(Connection c, String subscription, String filter) throws SQLException {
        TableName queueName = queueOf(subscription);
        SubscriptionFilter parsed = SubscriptionFilter.parse(filter);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    if (update(c, subscription, parsed) == 0) {
                        insert(c, subscription, parsed);
                    }
                    c.commit();
                    break;
                } catch (SQLException e) {
                    c.rollback();
                    if (attempt == 3 || !dialect.isUniqueViolation(e)) {
                        throw e;
                    }
                    // another server subscribed between our update and our insert: update its row
                }
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
        LOG.fine(() -> "subscription " + subscription + " to topic " + name + ": " + parsed + ", queue " + queueName);
    }

    private int update(Connection c, String subscription, SubscriptionFilter filter) throws SQLException {
        try (SqlTemplate.Bound b = updateFilter.prepare(c)) {
            return b.setString("filter", filter.text()).setString("topic", name.toString())
                    .setString("name", subscription).executeUpdate();
        }
    }

    private void insert(Connection c, String subscription, SubscriptionFilter filter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (topic, name, filter, created_at)"
                + " VALUES (?, ?, ?, " + dialect.now() + ")")) {
            ps.setString(1, name.toString());
            ps.setString(2, subscription);
            ps.setString(3, filter.text());
            ps.executeUpdate();
        }
    }

    /**
     * Removes a subscription, and commits: messages published from now on no longer reach its
     * queue. The queue and the messages in it stay. Returns whether it existed.
     */
    public boolean unsubscribe(Connection c, String subscription) throws SQLException {
        queueOf(subscription); // refuses a name no subscription can have
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        try (SqlTemplate.Bound b = deleteSubscription.prepare(c)) {
            return b.setString("topic", name.toString()).setString("name", subscription).executeUpdate() == 1;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    /** The topic's subscriptions now, by name. */
    public List<Subscription> subscriptions(Connection c) throws SQLException {
        List<Subscription> found = new ArrayList<>();
        try (SqlTemplate.Bound b = selectSubscriptions.prepare(c).setString("topic", name.toString())) {
            try (ResultSet rs = b.executeQuery()) {
                while (rs.next()) {
                    found.add(new Subscription(rs.getString(1), queueOf(rs.getString(1)), filter(rs.getString(2))));
                }
            }
        }
        return found;
    }

    /**
     * A stored filter, parsed once: every publish reads the filters, and a selector costs more to
     * parse than to evaluate. The cache holds the few filters a topic has; it starts afresh should
     * edits by hand make it grow past {@value #MAX_CACHED_FILTERS}.
     */
    private SubscriptionFilter filter(String text) {
        if (text == null) {
            return SubscriptionFilter.ALL;
        }
        SubscriptionFilter f = filters.get(text);
        if (f == null) {
            f = SubscriptionFilter.parse(text);
            if (filters.size() >= MAX_CACHED_FILTERS) {
                filters.clear();
            }
            filters.put(text, f);
        }
        return f;
    }

    /**
     * Publishes a message, in the caller's transaction: a copy goes into the queue of each
     * subscription whose filter matches it (each copy with its own id; a dedup key applies per
     * subscription queue). Returns the queues it reached; none when no subscription matched, or
     * when no subscriptions table exists yet (the message is then gone, as with a JMS topic without
     * subscribers).
     */
    public List<TableName> publish(Connection c, OutgoingMessage message) throws SQLException {
        Objects.requireNonNull(message, "message");
        if (!c.getAutoCommit()) {
            return copy(c, message);
        }
        c.setAutoCommit(false); // in auto-commit each copy would commit on its own: one transaction for all
        try {
            List<TableName> reached = copy(c, message);
            c.commit();
            return reached;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private List<TableName> copy(Connection c, OutgoingMessage message) throws SQLException {
        List<TableName> reached = new ArrayList<>();
        if (!subscriptionsTableSeen && !subscriptionsTableExists(c)) {
            return reached; // nobody ever subscribed in this schema
        }
        subscriptionsTableSeen = true;
        SelectorValues values = SelectorValues.ofPublished(message, Instant.now());
        for (Subscription s : subscriptions(c)) {
            if (s.filter().matches(values)) {
                QueueTable queue = queues.computeIfAbsent(s.queue().toString(),
                        q -> new QueueTable(dialect, q, null, RetryPolicy.DEFAULT));
                try {
                    queue.send(c, message);
                } catch (SQLException e) { // say which subscription, keeping the state a caller classifies by
                    throw new SQLException("topic " + name + ", subscription " + s.name() + ": cannot write to its"
                            + " queue " + s.queue() + ": " + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
                }
                reached.add(s.queue());
            }
        }
        return reached;
    }

    /**
     * Asks the catalog, not the table: a failed SELECT would abort the caller's transaction on
     * PostgreSQL. Asked until the table is seen once.
     */
    private boolean subscriptionsTableExists(Connection c) throws SQLException {
        return TableCatalog.read(c, dialect, subscriptions).exists();
    }

    /** A durable subscription: its name, its queue and the filter of the messages it takes. */
    public record Subscription(String name, TableName queue, SubscriptionFilter filter) {
    }

    @Override
    public String toString() {
        return "Topic[" + name + " on " + dialect.name() + "]";
    }
}
