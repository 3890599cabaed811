package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueMessage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * One queue: a table of messages and its dead-letter table, and every operation on them.
 *
 * <p><b>Transactions.</b> Every operation runs on the caller's connection, in the caller's
 * transaction, and neither commits nor rolls back (except {@link #createIfMissing} and the
 * maintenance of {@link #deadLetters()}, which work in transactions of their own); on a
 * connection in auto-commit mode each call is its own transaction. A transacted consumer claims
 * with {@link #claim} inside its transaction: commit removes the messages, rollback puts them back
 * untouched, and {@link #recordFailure} then counts the failure in a transaction of its own. A
 * consumer without a transaction around its work uses {@link #lease}, {@link #renew} while it works, and
 * {@link #ack}/{@link #nack}.
 *
 * <p><b>Errors.</b> Bad arguments fail with {@link IllegalArgumentException} before any SQL runs;
 * database errors propagate as {@link SQLException}.
 *
 * <p><b>Threads.</b> Instances are immutable and thread-safe; connections are not, so use each on
 * one thread at a time.
 */
public final class QueueTable {

    private static final Logger LOG = Logger.getLogger(QueueTable.class.getName());

    /**
     * How often a statement in auto-commit is tried when it loses a lock conflict (chosen as a
     * deadlock victim, or its lock wait timed out): it left nothing behind, so trying again is safe.
     */
    static final int LOCK_CONFLICT_TRIES = 3;
    /** The reason recorded for a message whose time to live ran out before it was delivered. */
    public static final String EXPIRED = "expired";
    /** The most messages one claim or lease takes (small claims never escalate to table locks). */
    public static final int MAX_CLAIM = 1000;
    /** The longest lease accepted. */
    public static final Duration MAX_LEASE = Duration.ofHours(24);

    /** This process, as a lease names its holder ({@code leased_by}): pid@host, as the JVM names itself. */
    static final String HOLDER = java.lang.management.ManagementFactory.getRuntimeMXBean().getName();
    /**
     * A message made visible this far ahead or more (sent with a delay, given back with a retry
     * back-off, leased) is hidden: claims, leases, holds and peeks pass over it, without reading it,
     * until {@link #revealDue} finds its time has come. A nearer time does not hide it.
     */
    public static final Duration HIDDEN_FROM = Duration.ofMillis(Dialect.HIDDEN_FROM_MILLIS);
    /** The dead-letter table's default name: the queue's plus this suffix. */
    public static final String DEAD_LETTER_SUFFIX = "_dlq";

    private final Dialect dialect;
    private final TableName name;
    private final TableName deadLetterName;
    private final RetryPolicy retryPolicy;
    private final QueueSql sql;
    private final boolean keyOrder;
    private final boolean discardExpired;
    /** The selector of a {@link #selecting} queue, else null. */
    private final MessageSelector selector;
    private final DeadLetters deadLetters;
    /** Claim and lease statements with their size as a literal, by size (few sizes are used). */
    private final ConcurrentMap<Integer, SqlTemplate> claims = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, SqlTemplate> leases = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, SqlTemplate> unattemptedLeases = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, SqlTemplate> holds = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, SqlTemplate> holdsAfter = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, SqlTemplate> browsePages = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, SqlTemplate> browsePagesAfter = new ConcurrentHashMap<>();
    /** The reveal of {@link #revealDue}, its size ({@link #MAX_CLAIM}) a literal. */
    private final SqlTemplate reveal;

    /**
     * @param dialect         the database's dialect ({@link Dialect#of(Connection)})
     * @param queue           the queue table: {@code orders} or {@code schema.orders}
     * @param deadLetterQueue the dead-letter table, or {@code null} for the queue's name + {@code _dlq}
     * @param retryPolicy     how failed deliveries are retried
     * @throws IllegalArgumentException for a name that is not a valid identifier
     */
    public QueueTable(Dialect dialect, String queue, String deadLetterQueue, RetryPolicy retryPolicy) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.name = TableName.parse(queue);
        this.deadLetterName = deadLetterQueue == null ? name.withSuffix(DEAD_LETTER_SUFFIX)
                : TableName.parse(deadLetterQueue);
        if (deadLetterName.equals(name)) {
            throw new IllegalArgumentException("deadLetterQueue must differ from the queue, both are '" + name + "'");
        }
        this.sql = new QueueSql(dialect, name, deadLetterName, false, null);
        this.keyOrder = false;
        this.discardExpired = false;
        this.selector = null;
        this.deadLetters = new DeadLetters(dialect, name, deadLetterName, sql);
        this.reveal = sql.reveal.withLiteral("n", MAX_CLAIM);
    }

    private QueueTable(QueueTable base, boolean keyOrder, boolean discardExpired, MessageSelector selector) {
        this.dialect = base.dialect;
        this.retryPolicy = base.retryPolicy;
        this.name = base.name;
        this.deadLetterName = base.deadLetterName;
        this.sql = keyOrder == base.keyOrder && Objects.equals(selector, base.selector) ? base.sql
                : new QueueSql(dialect, name, deadLetterName, keyOrder, selector == null ? null : selection(selector));
        this.keyOrder = keyOrder;
        this.discardExpired = discardExpired;
        this.selector = selector;
        this.deadLetters = base.deadLetters;
        this.reveal = base.reveal; // the same in every key order
    }

    /**
     * This queue with ordered delivery: its {@link #claim}, {@link #lease} and {@link #hold} take
     * a message that has an ordering key only when no earlier message of that key is left in the
     * table, so the messages of one key go one at a time, in id order, while messages of different
     * keys and messages without a key go in parallel. Every consumer of the queue must take in
     * this order for it to hold: one that does not takes whatever is next.
     */
    public QueueTable inKeyOrder() {
        return keyOrder ? this : new QueueTable(this, true, discardExpired, selector);
    }

    /**
     * This queue, deleting the expired messages its claims, leases, holds and
     * {@link #sweepExpired sweeps} come across instead of moving them to the dead-letter table.
     */
    public QueueTable discardingExpired() {
        return discardExpired ? this : new QueueTable(this, keyOrder, true, selector);
    }

    /**
     * This queue for a consumer with a message selector: its {@link #claim}, {@link #lease},
     * {@link #leaseUnattempted} and {@link #hold} take only the ready messages {@code selector}
     * selects ({@link SelectorValues} gives it a row's header fields and properties). The others
     * stay as they are, for other consumers: not locked, changed nor counted. A row whose headers
     * or {@code enqueued_at} cannot be read is taken, to be dead-lettered as any claim does.
     * {@link #peek} still answers for every ready message. Cost: a take reads the ready rows in
     * the dequeue order until it has found its own, so behind N messages the selector does not
     * take it reads N rows (see {@link SelectingPick}).
     */
    public QueueTable selecting(MessageSelector selector) {
        Objects.requireNonNull(selector, "selector");
        return selector.equals(this.selector) ? this : new QueueTable(this, keyOrder, discardExpired, selector);
    }

    /** Which candidate rows {@code selector} takes: those it selects, and those no consumer can decode. */
    private Predicate<SelectingPick.Candidate> selection(MessageSelector selector) {
        String queue = name.toString();
        return r -> {
            Map<String, String> headers;
            try {
                headers = HeadersJson.read(r.headers());
            } catch (IllegalArgumentException undeliverable) {
                return true;
            }
            if (r.enqueuedAt() == null) {
                return true;
            }
            int deliveryCount = r.attempts() < 0 ? 1 : r.attempts() == Integer.MAX_VALUE ? r.attempts() : r.attempts() + 1;
            return selector.matches(SelectorValues.ofQueued(queue, r.id(), r.priority(), r.enqueuedAt(), deliveryCount,
                    r.orderingKey(), headers));
        };
    }

    /** A queue with the default dead-letter table and retry policy, in the connection's database. */
    public static QueueTable open(Connection connection, String queue) throws SQLException {
        return new QueueTable(Dialect.of(connection), queue, null, RetryPolicy.DEFAULT);
    }

    public TableName name() {
        return name;
    }

    public TableName deadLetterName() {
        return deadLetterName;
    }

    public Dialect dialect() {
        return dialect;
    }

    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    /** The operator's tools for this queue's dead-letter table: browse, requeue, delete and purge. */
    public DeadLetters deadLetters() {
        return deadLetters;
    }

    /**
     * Creates the queue and dead-letter tables and their indexes where missing, brings tables made
     * by an older release up to date (the columns, indexes and defaults added since: see
     * {@link TableDefinition}), and commits. Refuses tables the database cannot use as they are
     * ({@link #checkExisting}) before changing anything. Safe when several servers start at once
     * (a database lock makes them take turns). Call it on a connection that is not part of another
     * transaction.
     */
    public void createIfMissing(Connection c) throws SQLException {
        SchemaCreation.createIfMissing(c, dialect, "sqlqueue:" + name, this::checkExisting, List.of(
                new SchemaCreation.Table(TableDefinition.QUEUE, name),
                new SchemaCreation.Table(TableDefinition.DEAD_LETTERS, deadLetterName)));
    }

    /**
     * Checks tables made by someone else (a DBA's script, an earlier release) without creating or
     * changing anything: where the database cannot use them as they are (on SQL Server, an enabled
     * trigger, or a table whose name differs from this queue's in case alone), fails naming the
     * table and the fix. {@link #createIfMissing} checks the same.
     */
    public void checkExisting(Connection c) throws SQLException {
        dialect.checkExisting(c, name, deadLetterName);
    }

    /**
     * Enqueues one message and returns its id. With a dedup key that is still in the queue, returns
     * that message's id and writes nothing.
     */
    public long send(Connection c, OutgoingMessage message) throws SQLException {
        Objects.requireNonNull(message, "message");
        if (message.dedupKey() == null) {
            return insert(c, sql.insert, message);
        }
        // The existing row can be consumed between our insert and our look-up: try again then.
        for (int round = 0; round < 3; round++) {
            try {
                long id = insert(c, sql.insertIfAbsent, message);
                if (id != 0) {
                    return id;
                }
            } catch (SQLException e) {
                if (!dialect.isUniqueViolation(e)) {
                    throw e;
                }
            }
            try (SqlTemplate.Bound b = sql.idByDedupKey.prepare(c).setString("dedupKey", message.dedupKey());
                    ResultSet rs = b.executeQuery()) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
        }
        throw new SQLException("could not enqueue the message with dedup key '" + message.dedupKey() + "' into queue "
                + name + ": the table's unique index on dedup_key refused it while no queued message has exactly that"
                + " key. Either the index compares keys more loosely than Java does (a SQL Server table made by an"
                + " earlier release, whose keys ignore case: run admin/sqlserver-exact-keys.sql), or a message with"
                + " that key kept arriving and being consumed meanwhile");
    }

    /** Runs an insert returning the new id, or 0 when it inserted nothing. */
    private long insert(Connection c, SqlTemplate insert, OutgoingMessage m) throws SQLException {
        return insert(c, dialect, name, insert, m);
    }

    /** Runs one of {@code queue}'s inserts ({@link QueueSql}) returning the new id, or 0 when it inserted nothing. */
    static long insert(Connection c, Dialect dialect, TableName queue, SqlTemplate insert, OutgoingMessage m)
            throws SQLException {
        try (SqlTemplate.Bound b = insert.prepare(c)) {
            b.setInt("priority", m.priority())
                    .setMillis("delay", m.delay().toMillis())
                    .setMillis("ttl", m.timeToLive())
                    .setString("headers", HeadersJson.write(m.headers()))
                    .setBytes("body", m.body())
                    .setString("dedupKey", m.dedupKey())
                    .setString("orderingKey", m.orderingKey());
            try (ResultSet rs = b.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw dialect.explained(e, queue);
        }
    }

    /**
     * Enqueues messages in order with JDBC batches and returns their ids in the same order.
     * Messages with a dedup key are enqueued one by one, as by {@link #send}.
     */
    public long[] sendAll(Connection c, List<OutgoingMessage> messages) throws SQLException {
        Objects.requireNonNull(messages, "messages");
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) == null) {
                throw new IllegalArgumentException("messages[" + i + "] is null");
            }
        }
        long[] ids = new long[messages.size()];
        int from = 0;
        while (from < messages.size()) {
            if (messages.get(from).dedupKey() != null) {
                ids[from] = send(c, messages.get(from));
                from++;
                continue;
            }
            int to = from;
            while (to < messages.size() && messages.get(to).dedupKey() == null) {
                to++;
            }
            long[] run;
            try {
                run = dialect.insertBatch(c, sql, messages.subList(from, to));
            } catch (SQLException e) {
                throw dialect.explained(e, name);
            }
            System.arraycopy(run, 0, ids, from, run.length);
            from = to;
        }
        return ids;
    }

    /**
     * Takes up to {@code max} ready messages, highest priority first and FIFO within a priority,
     * by deleting them in the caller's transaction: commit consumes them, rollback returns them
     * untouched. Rows other transactions hold are skipped, never waited for. Rows that cannot be
     * delivered, and expired ones (reason {@link #EXPIRED}), are moved to the dead-letter table in
     * the same transaction and logged, not returned (see {@link #claim(Connection, int, Consumer)}).
     */
    public List<QueueMessage> claim(Connection c, int max) throws SQLException {
        return claim(c, max, LOGGED);
    }

    /**
     * As {@link #claim(Connection, int)}, reporting each row that cannot be delivered (malformed
     * headers, an unreadable timestamp) to {@code undeliverable} after moving it to the
     * dead-letter table in the caller's transaction: a rollback returns it to the queue with the
     * others. The list returned may therefore be shorter than the rows claimed, even empty.
     */
    public List<QueueMessage> claim(Connection c, int max, Consumer<UndeliverableMessage> undeliverable)
            throws SQLException {
        checkClaimSize(max);
        List<Row> rows = retryingLockConflicts(c, () -> dialect.withClaimIsolation(c,
                () -> read(sql.pick.prepare(c, sized(claims, sql.claim, max), max, null))));
        List<QueueMessage> messages = new ArrayList<>(rows.size());
        for (Row r : rows) {
            int attempt = r.nextAttempt();
            Decoded d = r.decode(name, attempt);
            if (d.message != null) {
                messages.add(d.message);
            } else if (discardExpired && EXPIRED.equals(d.reason)) {
                undeliverable.accept(new UndeliverableMessage(r.id, orNow(r.enqueuedAt), attempt, d.reason));
            } else {
                try (SqlTemplate.Bound b = sql.deadLetterRow.prepare(c)) {
                    b.setLong("id", r.id).setInt("priority", r.priority)
                            .setObject("visibleAt", dialect.timestampParameter(orNow(r.visibleAt)))
                            .setObject("enqueuedAt", dialect.timestampParameter(orNow(r.enqueuedAt)))
                            .setInt("attempts", r.attempts).setString("dedupKey", r.dedupKey)
                            .setString("headers", r.headers).setBytes("body", r.body)
                            .setString("orderingKey", r.orderingKey)
                            .setString("error", Dialect.truncateError(d.reason)).setString("errorClass", null)
                            .executeUpdate();
                }
                undeliverable.accept(new UndeliverableMessage(r.id, orNow(r.enqueuedAt), attempt, d.reason));
            }
        }
        return messages;
    }

    /**
     * Takes up to {@code max} ready messages under a lease: they stay in the table, invisible for
     * {@code leaseTime}, with their attempt count raised. Acknowledge each with {@link #ack} or
     * give it back with {@link #nack}; one that is neither becomes visible again when the lease
     * runs out (a lease of a second or more: at the first {@link #revealDue} after that). A message whose lease has run out on its last allowed attempt is moved to the
     * dead-letter table here instead of being returned, and so is a row that cannot be delivered.
     */
    public List<LeasedMessage> lease(Connection c, int max, Duration leaseTime) throws SQLException {
        return lease(c, max, leaseTime, LOGGED);
    }

    /**
     * As {@link #lease(Connection, int, Duration)}, reporting each row it moved to the dead-letter
     * table instead of returning it (undeliverable, or out of attempts) to {@code undeliverable}.
     */
    public List<LeasedMessage> lease(Connection c, int max, Duration leaseTime,
            Consumer<UndeliverableMessage> undeliverable) throws SQLException {
        return lease(c, max, leaseTime, undeliverable, sql.pick, leases, sql.lease);
    }

    /**
     * As {@link #lease(Connection, int, Duration, Consumer)}, of messages never attempted only
     * ({@code attempts} 0 or less): those a delivery thread may lease ahead together, while one
     * already attempted (back from a lease that ran out, or from a retry) is leased alone, so that a
     * server it brings down charges no other message with it more than once.
     */
    public List<LeasedMessage> leaseUnattempted(Connection c, int max, Duration leaseTime,
            Consumer<UndeliverableMessage> undeliverable) throws SQLException {
        return lease(c, max, leaseTime, undeliverable, sql.pickUnattempted, unattemptedLeases, sql.leaseUnattempted);
    }

    private List<LeasedMessage> lease(Connection c, int max, Duration leaseTime,
            Consumer<UndeliverableMessage> undeliverable, Dialect.Pick pick, ConcurrentMap<Integer, SqlTemplate> sizes,
            SqlTemplate statement) throws SQLException {
        checkClaimSize(max);
        checkLeaseTime(leaseTime);
        long token = ThreadLocalRandom.current().nextLong();
        List<Row> rows = retryingLockConflicts(c, () -> dialect.withClaimIsolation(c,
                () -> read(pick.prepare(c, sized(sizes, statement, max), max, null)
                        .setMillis("lease", leaseTime.toMillis()).setLong("token", token).setString("holder", HOLDER)
                        .setInt("maxAttempts", retryPolicy.maxAttempts()))));
        List<LeasedMessage> leased = new ArrayList<>(rows.size());
        for (Row r : rows) {
            Decoded d = r.decode(name, Math.max(1, r.attempts));
            if (d.message == null) {
                SqlTemplate remove = discardExpired && EXPIRED.equals(d.reason) ? sql.ack : sql.deadLetterLeased;
                if (moveToDeadLetters(c, remove, r.id, d.reason,
                        b -> b.setLong("token", token)) == FailureOutcome.DEAD_LETTERED) {
                    undeliverable.accept(new UndeliverableMessage(r.id, orNow(r.enqueuedAt), d.attempt, d.reason));
                }
            } else if (r.attempts > retryPolicy.maxAttempts()) {
                String reason = attemptsSpent(r, r.attempts);
                if (moveToDeadLetters(c, sql.deadLetterLeased, r.id, reason,
                        b -> b.setLong("token", token)) == FailureOutcome.DEAD_LETTERED) {
                    undeliverable.accept(new UndeliverableMessage(r.id, r.enqueuedAt, r.attempts, reason));
                }
            } else {
                leased.add(new LeasedMessage(d.message, token));
            }
        }
        return leased;
    }

    /**
     * Why a row whose delivery would be {@code attempt}, past maxAttempts, is dead-lettered: the
     * leases that ran out, by whom, or that it came with its attempts spent.
     */
    private String attemptsSpent(Row r, int attempt) {
        int delivered = attempt - 1;
        if (r.leasedBy == null) { // no lease of it ran out since its last failure: none was recorded
            return "arrived with its attempts spent: its row said " + delivered + (delivered == 1 ? " attempt" : " attempts")
                    + ", and maxAttempts is "
                    + retryPolicy.maxAttempts() + " (written so by hand or by another program, or maxAttempts was"
                    + " lowered); not delivered";
        }
        int lapsed = r.leasedBy.split(", ").length;
        return "never completed: delivered " + delivered + (delivered == 1 ? " time" : " times") + ", and the lease" + (lapsed == 1 ? " of the last"
                : "s of the last " + lapsed) + " ran out, held by " + r.leasedBy + " (newest first): that server"
                + " stopped, or the delivery outlived its lease";
    }

    /**
     * Takes up to {@code max} ready messages by locking them in the caller's transaction, without
     * changing them: other consumers skip them until it ends (in auto-commit that is at once, which
     * makes a hold useless; it is not refused, because a connection of an XA data source in a JTA
     * transaction may report auto-commit: PostgreSQL's on Payara does).
     * Delete those consumed with {@link #deleteHeld} before the commit; the others are ready again
     * when the transaction ends, as they were, and a rollback gives back all. For a reader that
     * cannot know how many messages its transaction will consume (a batch chunk): cheaper than a
     * lease, which writes every row twice. A row that cannot be delivered, or whose leases (taken by
     * other consumers) ran out {@code maxAttempts} times, is moved to the dead-letter table in the
     * caller's transaction and logged instead of returned.
     *
     * <p>A transaction does not skip its own locks: a second hold in it passes the last message the
     * one before returned as {@code after}, and takes only messages after it in the dequeue order.
     * Messages before it that became ready meanwhile wait for the next transaction.
     *
     * @param after the last message an earlier hold of this transaction returned, or null
     */
    public List<HeldMessage> hold(Connection c, int max, HeldMessage after) throws SQLException {
        checkClaimSize(max);
        for (Dialect.Place place = after == null ? null : new Dialect.Place(after.priority(), after.message().id()); ; ) {
            Dialect.Place from = place;
            SqlTemplate hold = from == null ? sized(holds, sql.hold, max) : sized(holdsAfter, sql.holdAfter, max);
            List<Row> rows = dialect.withClaimIsolation(c, () -> read(sql.pick.prepare(c, hold, max, from)));
            List<HeldMessage> held = decodeHeld(c, rows);
            if (!held.isEmpty() || rows.isEmpty()) {
                return held;
            }
            // every row dead-lettered: go on after them, or an empty list would read as an empty queue
            place = new Dialect.Place(rows.get(rows.size() - 1).priority, rows.get(rows.size() - 1).id);
        }
    }

    /** The held rows as messages; those that cannot be delivered moved to the dead-letter table. */
    private List<HeldMessage> decodeHeld(Connection c, List<Row> rows) throws SQLException {
        List<HeldMessage> held = new ArrayList<>(rows.size());
        for (Row r : rows) {
            int attempt = r.nextAttempt();
            Decoded d = r.decode(name, attempt);
            String reason = d.message == null ? d.reason : attempt > retryPolicy.maxAttempts() ? attemptsSpent(r, attempt)
                    : null;
            if (reason == null) {
                held.add(new HeldMessage(d.message, r.priority));
            } else if (moveToDeadLetters(c, discardExpired && EXPIRED.equals(reason) ? sql.deleteHeldRow
                    : sql.deadLetterClaimed, r.id, reason,
                    b -> b.setInt("newAttempts", attempt)) == FailureOutcome.DEAD_LETTERED) {
                LOGGED.accept(new UndeliverableMessage(r.id, orNow(r.enqueuedAt), attempt, reason));
            }
        }
        return held;
    }

    /**
     * Deletes messages {@link #hold} took in the caller's transaction, in one round trip, and returns
     * how many it deleted: all of them, unless the transaction is no longer the one that held them.
     */
    public int deleteHeld(Connection c, List<HeldMessage> held) throws SQLException {
        if (held.isEmpty()) {
            return 0;
        }
        return dialect.deleteHeld(c, sql, held.stream().map(m -> m.message().id()).toArray(Long[]::new));
    }

    /**
     * Deletes a leased message: its work is done. Returns {@code false}, deleting nothing, when the
     * lease is no longer this one's (it ran out and another consumer claimed the message, or it was
     * already acknowledged): the caller's work may then be repeated by the new holder.
     */
    public boolean ack(Connection c, LeasedMessage m) throws SQLException {
        return retryingLockConflicts(c, () -> {
            try (SqlTemplate.Bound b = sql.ack.prepare(c)) {
                return b.setLong("id", m.message().id()).setLong("token", m.leaseToken()).executeUpdate() == 1;
            }
        });
    }

    /**
     * Acknowledges leased messages in one JDBC batch (one round trip) and returns those whose lease
     * was still theirs, in order: inside a delivery transaction, the deletes that commit with it.
     * An SQLException leaves the caller's transaction to roll back.
     */
    public List<LeasedMessage> ackAll(Connection c, List<LeasedMessage> messages) throws SQLException {
        if (messages.size() == 1) {
            return ack(c, messages.get(0)) ? messages : List.of();
        }
        List<LeasedMessage> acked = new ArrayList<>(messages.size());
        try (SqlTemplate.Bound b = sql.ack.prepare(c)) {
            for (LeasedMessage m : messages) {
                b.setLong("id", m.message().id()).setLong("token", m.leaseToken());
                b.statement().addBatch();
            }
            int[] counts = b.statement().executeBatch();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == 1) {
                    acked.add(messages.get(i));
                } else if (counts[i] != 0) {
                    // Which rows went is unknown: the caller must roll back, or a delete could commit unseen.
                    throw new SQLException("the driver reported " + counts[i] + " for the acknowledgement of message "
                            + messages.get(i).message().id() + ", not 1 or 0");
                }
            }
        }
        return acked;
    }

    /** {@link #nack(Connection, LeasedMessage, DeliveryFailure)} of a retryable failure that names no exception. */
    public FailureOutcome nack(Connection c, LeasedMessage m, String error) throws SQLException {
        return nack(c, m, DeliveryFailure.retryable(error));
    }

    /**
     * Gives a leased message back after a failure: it becomes visible again after the retry
     * back-off (a back-off of a second or more: at the first {@link #revealDue} after it), with
     * the failure's error as its {@code last_error}, or moves to the dead-letter table if this was
     * its last attempt or the failure is unrecoverable. {@link FailureOutcome#STALE} when the lease
     * is no longer this one's.
     */
    public FailureOutcome nack(Connection c, LeasedMessage m, DeliveryFailure failure) throws SQLException {
        int attempts = m.message().attempt();
        long id = m.message().id();
        String error = failure.error();
        if (failure.unrecoverable() || retryPolicy.isExhausted(attempts)) {
            return moveToDeadLetters(c, sql.deadLetterLeased, id, failure, b -> b.setLong("token", m.leaseToken()));
        }
        return retryingLockConflicts(c, () -> {
            try (SqlTemplate.Bound b = sql.retryLeased.prepare(c)) {
                b.setLong("id", id).setLong("token", m.leaseToken())
                        .setMillis("delay", retryPolicy.backoffAfter(attempts).toMillis())
                        .setString("error", Dialect.truncateError(error));
                return b.executeUpdate() == 1 ? FailureOutcome.RETRY_SCHEDULED : FailureOutcome.STALE;
            }
        });
    }

    /**
     * Extends leases while their consumer is still at work: each message hidden for {@code leaseTime}
     * from now, by the database's clock, if its lease token is still the one it was leased with;
     * several in one JDBC batch (one round trip). Returns those whose lease was no longer theirs, in
     * order: another consumer leased the message after the lease ran out (its token changed), or the
     * row is gone (acknowledged, dead-lettered, swept); the acknowledgement of such a message would
     * delete nothing. A lease that ran out and that no one took over is resumed. Runs in the caller's
     * transaction, or in auto-commit, where a lost lock conflict is tried again (renewing twice is
     * harmless). An SQLException renews nothing that can be relied on: try again before the leases
     * run out. A driver that reports no count for a statement of the batch
     * ({@link java.sql.Statement#SUCCESS_NO_INFO}) counts as renewed: the fenced acknowledgement still
     * tells.
     *
     * @throws IllegalArgumentException for a lease time outside 1 ms to {@link #MAX_LEASE}
     */
    public List<LeasedMessage> renew(Connection c, List<LeasedMessage> messages, Duration leaseTime)
            throws SQLException {
        checkLeaseTime(leaseTime);
        if (messages.isEmpty()) {
            return List.of();
        }
        int[] counts = retryingLockConflicts(c, () -> {
            try (SqlTemplate.Bound b = sql.renewLeased.prepare(c)) {
                if (messages.size() == 1) {
                    LeasedMessage m = messages.get(0);
                    return new int[] {b.setLong("id", m.message().id()).setLong("token", m.leaseToken())
                            .setMillis("lease", leaseTime.toMillis()).executeUpdate()};
                }
                for (LeasedMessage m : messages) {
                    b.setLong("id", m.message().id()).setLong("token", m.leaseToken())
                            .setMillis("lease", leaseTime.toMillis());
                    b.statement().addBatch();
                }
                return b.statement().executeBatch();
            }
        });
        List<LeasedMessage> lost = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) {
                lost.add(messages.get(i));
            }
        }
        return lost;
    }

    /**
     * Gives a leased message back as if it had not been leased: visible at once, its attempt count
     * as before the lease. For a delivery that never reached the consumer (no transaction to run
     * it in, the consumer going away). {@code false} when the lease is no longer this one's.
     */
    public boolean release(Connection c, LeasedMessage m) throws SQLException {
        return retryingLockConflicts(c, () -> {
            try (SqlTemplate.Bound b = sql.releaseLeased.prepare(c)) {
                return b.setLong("id", m.message().id()).setLong("token", m.leaseToken()).executeUpdate() == 1;
            }
        });
    }

    /**
     * Gives a leased message back after a failure without counting it: its attempt count as before
     * the lease, as {@link #release} leaves it, but visible again only after {@code delay} (a delay of
     * a second or more: at the first {@link #revealDue} after it), with {@code error} as its
     * {@code last_error}. For a failure that is not the message's (the consumer's circuit breaker is
     * open). {@code false} when the lease is no longer this one's.
     *
     * @throws IllegalArgumentException when {@code delay} is negative or longer than {@link RetryPolicy#MAX_BACKOFF}
     */
    public boolean postpone(Connection c, LeasedMessage m, Duration delay, String error) throws SQLException {
        long millis = checkDelay(delay);
        return retryingLockConflicts(c, () -> {
            try (SqlTemplate.Bound b = sql.postponeLeased.prepare(c)) {
                return b.setLong("id", m.message().id()).setLong("token", m.leaseToken()).setMillis("delay", millis)
                        .setString("error", Dialect.truncateError(error)).executeUpdate() == 1;
            }
        });
    }

    /**
     * Hides a message taken by {@link #claim} whose transaction rolled back for {@code delay}, with
     * {@code error} as its {@code last_error}, without counting the attempt: {@link #recordFailure}
     * for a failure that is not the message's (the consumer's circuit breaker is open). Run it in a
     * new transaction after the rollback. {@code false} when the message is gone or another delivery
     * has counted this attempt since (then it stays as that one left it).
     *
     * @throws IllegalArgumentException when {@code delay} is negative or longer than {@link RetryPolicy#MAX_BACKOFF}
     */
    public boolean postpone(Connection c, QueueMessage claimed, Duration delay, String error) throws SQLException {
        long millis = checkDelay(delay);
        return retryingLockConflicts(c, () -> {
            try (SqlTemplate.Bound b = sql.postponeClaimed.prepare(c)) {
                return b.setLong("id", claimed.id()).setInt("newAttempts", claimed.attempt())
                        .setMillis("delay", millis).setString("error", Dialect.truncateError(error))
                        .executeUpdate() == 1;
            }
        });
    }

    private static long checkDelay(Duration delay) {
        if (delay == null || delay.isNegative() || delay.compareTo(RetryPolicy.MAX_BACKOFF) > 0) {
            throw new IllegalArgumentException("a postponement must be between 0 and " + RetryPolicy.MAX_BACKOFF
                    + ", was " + delay);
        }
        return delay.toMillis();
    }

    /**
     * Records that the delivery of a message taken by {@link #claim} failed and its transaction
     * rolled back: run it in a new transaction after the rollback. Raises the attempt count,
     * stores {@code error} and hides the message for the retry back-off, or moves it to the
     * dead-letter table if this was its last attempt. {@link FailureOutcome#STALE} when the message
     * is gone or this attempt was already recorded.
     */
    public FailureOutcome recordFailure(Connection c, QueueMessage claimed, String error) throws SQLException {
        return recordFailure(c, claimed, DeliveryFailure.retryable(error));
    }

    /**
     * As {@link #recordFailure(Connection, QueueMessage, String)}; an unrecoverable failure moves
     * the message to the dead-letter table whatever attempts it has left.
     */
    public FailureOutcome recordFailure(Connection c, QueueMessage claimed, DeliveryFailure failure) throws SQLException {
        int failed = claimed.attempt();
        String error = failure.error();
        if (failure.unrecoverable() || retryPolicy.isExhausted(failed)) {
            return moveToDeadLetters(c, sql.deadLetterClaimed, claimed.id(), failure, b -> b.setInt("newAttempts", failed));
        }
        return retryingLockConflicts(c, () -> {
            try (SqlTemplate.Bound b = sql.retryClaimed.prepare(c)) {
                b.setLong("id", claimed.id()).setInt("newAttempts", failed)
                        .setMillis("delay", retryPolicy.backoffAfter(failed).toMillis())
                        .setString("error", Dialect.truncateError(error));
                return b.executeUpdate() == 1 ? FailureOutcome.RETRY_SCHEDULED : FailureOutcome.STALE;
            }
        });
    }

    /** Moves a row to the dead-letter table with {@code move}, or deletes it with a statement taking no :error. */
    private FailureOutcome moveToDeadLetters(Connection c, SqlTemplate move, long id, String reason, Fence fence)
            throws SQLException {
        return moveToDeadLetters(c, move, id, DeliveryFailure.retryable(reason), fence);
    }

    private FailureOutcome moveToDeadLetters(Connection c, SqlTemplate move, long id, DeliveryFailure failure,
            Fence fence) throws SQLException {
        return retryingLockConflicts(c, () -> {
            try (SqlTemplate.Bound b = move.prepare(c)) {
                b.setLong("id", id) // a delete binds no :error, and binding an absent name does nothing
                        .setString("error", Dialect.truncateError(failure.error()))
                        .setString("errorClass", Dialect.truncateErrorClass(failure.errorClass()));
                fence.bind(b);
                return b.executeUpdate() == 1 ? FailureOutcome.DEAD_LETTERED : FailureOutcome.STALE;
            }
        });
    }

    /** How often a cancel tries again when the message it did not delete turns out to be free. */
    static final int CANCEL_TRIES = 3;

    /**
     * Cancels a queued message: deletes it in the caller's transaction (commit removes it for good,
     * rollback leaves it as it was), unless a consumer has it in delivery. A message waiting for
     * its time (a delay, a retry back-off) is cancelled like a ready one; one whose lease has run
     * out too (its consumer's late {@link #ack} then finds nothing). Nothing goes to the dead-letter
     * table.
     *
     * @return {@link Cancellation.Outcome#CANCELLED}; {@link Cancellation.Outcome#NOT_QUEUED} when
     *         the queue has no such message; {@link Cancellation.Outcome#LEASED} or
     *         {@link Cancellation.Outcome#HELD}, changing nothing, when a consumer has it in
     *         delivery: under a lease that has not run out, or held by another transaction, which
     *         is not waited for where the database can pass over the row (not on SQL Server's
     *         Babelfish, which ignores READPAST). On SQL Server without READ_COMMITTED_SNAPSHOT,
     *         a message another transaction has deleted and not committed reads as NOT_QUEUED:
     *         {@link Dialect#lastCommitted}.
     */
    public Cancellation cancel(Connection c, long id) throws SQLException {
        return cancel(c, sql.cancelById, sql.queuedById, b -> b.setLong("id", id), id);
    }

    /**
     * As {@link #cancel}, the message with this dedup key; keys compare as Java's
     * {@code String.equals}, as {@link #send} compares them.
     *
     * @throws IllegalArgumentException for a key that is null, empty or longer than any dedup key
     *         can be, before any SQL runs
     */
    public Cancellation cancelByDedupKey(Connection c, String dedupKey) throws SQLException {
        if (dedupKey == null || dedupKey.isEmpty() || dedupKey.length() > OutgoingMessage.MAX_DEDUP_KEY_LENGTH) {
            throw new IllegalArgumentException("dedupKey must be 1 to " + OutgoingMessage.MAX_DEDUP_KEY_LENGTH
                    + " characters, was " + (dedupKey == null ? "null" : dedupKey.length() + " characters"));
        }
        return cancel(c, sql.cancelByKey, sql.queuedByKey, b -> b.setString("dedupKey", dedupKey), 0);
    }

    /**
     * Deletes the message unless it is in delivery; when nothing was deleted, reads why. A message
     * found under no lease was either held by another transaction or became free (committed by a
     * send of its key, given back by a consumer) after the delete: the delete is tried again, and
     * the message counts as held only when it still takes nothing.
     */
    private Cancellation cancel(Connection c, Dialect.UnheldDelete delete, SqlTemplate queued, Dialect.Binding key,
            long id) throws SQLException {
        for (int tries = 1; ; tries++) {
            if (retryingLockConflicts(c, () -> delete.delete(c, key)) > 0) {
                return new Cancellation(Cancellation.Outcome.CANCELLED, id);
            }
            try (SqlTemplate.Bound b = queued.prepare(c)) {
                key.bind(b);
                try (ResultSet rs = b.executeQuery()) {
                    if (!rs.next()) {
                        return new Cancellation(Cancellation.Outcome.NOT_QUEUED, id);
                    }
                    if (rs.getInt(2) == 1) {
                        return new Cancellation(Cancellation.Outcome.LEASED, rs.getLong(1));
                    }
                    if (tries == CANCEL_TRIES) {
                        return new Cancellation(Cancellation.Outcome.HELD, rs.getLong(1));
                    }
                }
            }
        }
    }

    /**
     * Runs one statement of this queue; in auto-commit, where the statement is a transaction of its
     * own, tries it again when it lost a lock conflict ({@link Dialect#isLockConflict}), up to
     * {@link #LOCK_CONFLICT_TRIES} times. Inside the caller's transaction the exception propagates
     * at once: a deadlock victim's transaction is already rolled back, and after a lock time-out
     * the caller must roll back, so the claim it made returns untouched and counts no attempt.
     */
    private <T> T retryingLockConflicts(Connection c, Dialect.SqlCall<T> statement) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return statement.run();
            } catch (SQLException e) {
                if (attempt == LOCK_CONFLICT_TRIES || !dialect.isLockConflict(e) || !c.getAutoCommit()) {
                    throw e;
                }
                int tried = attempt;
                LOG.fine(() -> "queue " + name + ": a statement lost a lock conflict (try " + tried + " of "
                        + LOCK_CONFLICT_TRIES + "), trying again: " + e.getMessage());
            }
        }
    }

    /** The most expired messages one transaction of {@link #sweepExpired} takes. */
    static final int SWEEP_BATCH = 500;

    /**
     * Moves the messages whose time to live has run out to the dead-letter table with the reason
     * {@link #EXPIRED} (or deletes them, {@link #discardingExpired()}), however far back in the
     * queue they wait, and returns how many. For expired messages no claim comes across (a queue
     * behind a long backlog, messages waiting behind their ordering key). Batches of
     * {@value #SWEEP_BATCH}, each a transaction of its own, through the index on
     * {@code expires_at}: live rows are not read. Leaves rows under a lease that has not run out
     * and rows other transactions hold; call it on a connection outside any transaction.
     */
    public int sweepExpired(Connection c) throws SQLException {
        SqlTemplate sweep = discardExpired ? sql.discardExpired : sql.sweepExpired;
        return BatchedTransactions.run(c, Integer.MAX_VALUE, SWEEP_BATCH, "expiry sweep of " + name,
                size -> dialect.withClaimIsolation(c, () -> {
                    try (SqlTemplate.Bound b = sweep.withLiteral("n", size).prepare(c)) {
                        return b.setString("error", EXPIRED).setString("errorClass", null).executeUpdate();
                    }
                }));
    }

    /**
     * Makes up to {@link #MAX_CLAIM} hidden messages whose time has come ({@link #HIDDEN_FROM})
     * claimable, in the caller's transaction, and returns how many; while it returns
     * {@code MAX_CLAIM}, more may be due. Until a reveal, such a message waits: every consumer
     * relies on some consumer of the queue calling this regularly (the adapter's pollers do at
     * least once a second, and whenever a peek finds nothing ready; the batch reader whenever it
     * finds nothing to read, and once a second). Rows other transactions hold are skipped where
     * the database can (H2 waits for them).
     */
    public int revealDue(Connection c) throws SQLException {
        return dialect.withClaimIsolation(c, () -> {
            try (SqlTemplate.Bound b = reveal.prepare(c)) {
                return b.executeUpdate();
            }
        });
    }

    /**
     * Whether some message is ready now: a cheap look for idle pollers, not locking anything.
     * Hidden messages are not ready, even once due, until {@link #revealDue} reveals them.
     */
    public boolean peek(Connection c) throws SQLException {
        return dialect.withClaimIsolation(c, () -> {
            try (SqlTemplate.Bound b = sql.peek.prepare(c); ResultSet rs = b.executeQuery()) {
                return rs.next();
            }
        });
    }

    /**
     * A browser of this queue's messages that a consumer could take now, each as a delivery would
     * show it, filtered by {@code selector} (null: all): see {@link Browse}. Reads nothing yet.
     */
    public Browse browse(MessageSelector selector) {
        return new Browse(this, selector);
    }

    /**
     * One page of a browse: the first {@code n} rows after {@code after} (null: from the start)
     * that {@link QueueSql#browse} reads, those a delivery can decode as messages, and the place of
     * the last row read, to go on from.
     */
    BrowsedRows browsePage(Connection c, Dialect.Place after, int n) throws SQLException {
        SqlTemplate page = after == null ? sized(browsePages, sql.browse, n) : sized(browsePagesAfter, sql.browseAfter, n);
        List<Row> rows = read(after == null ? page.prepare(c) : Dialect.bindAfter(page.prepare(c), after));
        List<QueueMessage> messages = new ArrayList<>(rows.size());
        for (Row r : rows) {
            QueueMessage m = r.decode(name, r.nextAttempt()).message;
            if (m != null) { // a row no delivery can decode is not a message: the next claim dead-letters it
                messages.add(m);
            }
        }
        Row last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
        return new BrowsedRows(messages, last == null ? null : new Dialect.Place(last.priority, last.id),
                rows.size() == n);
    }

    /** A page of {@link #browsePage}: {@code full} when it read {@code n} rows, so more may follow {@code last}. */
    record BrowsedRows(List<QueueMessage> messages, Dialect.Place last, boolean full) {
    }

    /** What {@link #gatherPlannerStatistics} found and did. */
    public enum PlannerStatistics {
        /** The database has them, or gathers them itself. */
        PRESENT,
        /** They were missing and are there now. */
        GATHERED,
        /** They are missing and this login could not gather them (on PostgreSQL, only the table's owner may ANALYZE it). */
        MISSING
    }

    /**
     * Where the database plans claims and leases from column statistics that it gathers only in
     * the background (PostgreSQL), gathers them now if the queue table has none. Call it while the
     * table holds messages (statistics of an empty table say nothing), outside a transaction.
     */
    public PlannerStatistics gatherPlannerStatistics(Connection c) throws SQLException {
        if (sql.columnStatistics == null || columnsWithStatistics(c) > 0) {
            return PlannerStatistics.PRESENT;
        }
        try (Statement s = c.createStatement()) {
            s.execute(sql.gatherStatistics); // a login that does not own the table gets a warning, not an error
        }
        return columnsWithStatistics(c) > 0 ? PlannerStatistics.GATHERED : PlannerStatistics.MISSING;
    }

    private long columnsWithStatistics(Connection c) throws SQLException {
        try (SqlTemplate.Bound b = sql.columnStatistics.prepare(c)) {
            try (ResultSet rs = b.setString("table", sql.tableName).executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Counts of ready, delayed, leased and dead-lettered messages, and the oldest ready age. */
    public QueueStats stats(Connection c) throws SQLException {
        long ready, delayed, leased, oldestMillis, expired;
        try (SqlTemplate.Bound b = sql.stats.prepare(c); ResultSet rs = b.executeQuery()) {
            rs.next();
            ready = rs.getLong(1);
            delayed = rs.getLong(2);
            leased = rs.getLong(3);
            oldestMillis = rs.getLong(4); // NULL (none ready) reads as 0
            expired = rs.getLong(5);
        }
        try (SqlTemplate.Bound b = sql.deadLetterCount.prepare(c); ResultSet rs = b.executeQuery()) {
            rs.next();
            return new QueueStats(ready, delayed, leased, rs.getLong(1), Duration.ofMillis(Math.max(oldestMillis, 0)),
                    expired);
        }
    }

    private static SqlTemplate sized(ConcurrentMap<Integer, SqlTemplate> cache, SqlTemplate template, int n) {
        return cache.computeIfAbsent(n, size -> template.withLiteral("n", size));
    }

    private static void checkLeaseTime(Duration leaseTime) {
        if (leaseTime == null || leaseTime.toMillis() < 1 || leaseTime.compareTo(MAX_LEASE) > 0) {
            throw new IllegalArgumentException("lease time must be between 1 ms and " + MAX_LEASE + ", was " + leaseTime);
        }
    }

    private static void checkClaimSize(int max) {
        if (max < 1 || max > MAX_CLAIM) {
            throw new IllegalArgumentException("claim size must be between 1 and " + MAX_CLAIM + ", was " + max);
        }
    }

    /** Executes a claim or lease and reads its rows, in dequeue order (OUTPUT and RETURNING promise none). */
    private List<Row> read(SqlTemplate.Bound statement) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (statement; ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                Instant expiresAt = readInstant(rs, 11);
                Row r = new Row(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getBytes(4), readInstant(rs, 5),
                        rs.getInt(6), readInstant(rs, 7), rs.getString(8), rs.getString(9), rs.getString(10),
                        expiresAt, expired(expiresAt, readInstant(rs, 12)));
                rows.add(r);
            }
        } catch (SQLException e) {
            throw dialect.explained(e, name);
        }
        rows.sort(Comparator.comparingInt(Row::priority).reversed().thenComparingLong(Row::id));
        return rows;
    }

    /**
     * A timestamp column's instant, or null when it holds a value Java cannot represent (such a
     * row is undeliverable: it must not fail the claim of the rows around it).
     */
    private Instant readInstant(ResultSet rs, int column) throws SQLException {
        try {
            return dialect.readInstant(rs, column);
        } catch (SQLException | RuntimeException e) {
            if (rs.getStatement().getConnection().isClosed()) {
                throw e;
            }
            return null;
        }
    }

    /** Whether a row with this expiry has expired at {@code now}, both by the database's clock. */
    private static boolean expired(Instant expiresAt, Instant now) {
        return expiresAt != null && now != null && !expiresAt.isAfter(now);
    }

    private static Instant orNow(Instant instant) {
        return instant == null ? Instant.now() : instant;
    }

    /** A row as the database returned it; turned into a message by {@link #decode}. */
    private record Row(long id, int priority, String headers, byte[] body, Instant enqueuedAt, int attempts,
            Instant visibleAt, String dedupKey, String orderingKey, String leasedBy, Instant expiresAt,
            boolean expired) {

        /** The attempt a delivery of this row is: one more than those counted, never below 1 nor overflowing. */
        int nextAttempt() {
            return attempts < 0 ? 1 : attempts == Integer.MAX_VALUE ? attempts : attempts + 1;
        }

        /**
         * The message, or why there can be none: its time to live ran out, or the row is malformed
         * (only headers and enqueued_at can be).
         */
        Decoded decode(TableName queue, int attempt) {
            if (expired) {
                return new Decoded(null, attempt, EXPIRED);
            }
            if (enqueuedAt == null) {
                return new Decoded(null, attempt, "undeliverable: the enqueued_at column holds a time outside"
                        + " what Java can represent (recorded here as the time it was found)");
            }
            Map<String, String> parsed;
            try {
                parsed = HeadersJson.read(headers);
            } catch (IllegalArgumentException e) {
                return new Decoded(null, attempt, "undeliverable: the " + e.getMessage());
            }
            return new Decoded(new QueueMessage(id, queue.toString(), body, parsed, enqueuedAt, attempt, orderingKey,
                    priority, expiresAt), attempt, null);
        }
    }

    /** A decoded row: the message, or the reason it cannot be delivered. */
    private record Decoded(QueueMessage message, int attempt, String reason) {
    }

    /** Logs each undeliverable row: for callers of the engine that do not count them themselves. */
    private static final Consumer<UndeliverableMessage> LOGGED = m -> LOG.log(
            EXPIRED.equals(m.reason()) ? java.util.logging.Level.INFO : java.util.logging.Level.WARNING,
            () -> "message " + m.id() + " was not delivered and was moved to the dead-letter table: " + m.reason());

    @FunctionalInterface
    private interface Fence {
        void bind(SqlTemplate.Bound b) throws SQLException;
    }

    @Override
    public String toString() {
        return "QueueTable[" + name + " on " + dialect.name() + (keyOrder ? ", in key order" : "")
                + (discardExpired ? ", discarding expired" : "") + (selector == null ? "" : ", selecting " + selector)
                + "]";
    }
}
