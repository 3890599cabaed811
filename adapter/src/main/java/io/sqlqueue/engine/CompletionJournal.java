package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A queue's optional completion journal, the table {@code <queue>_journal}: one row per finished
 * delivery, written in the delivery's own transaction, so that a row exists exactly when the
 * delivery's outcome was committed. It answers "how long did messages wait, how long did they take,
 * minute by minute" ({@link #perMinuteTimingsSql}); what did not finish is in the queue table
 * ({@link #unfinishedDeliveriesSql}). Off by default: nothing creates or writes it unless asked.
 *
 * <p>Columns: {@code message_id, enqueued_at, claimed_at, completed_at, attempts, outcome}
 * ({@code completed} or {@code dead_lettered}), {@code consumer} (up to 200 characters), {@code trace_id}
 * (the producer's W3C trace id from the message's {@code traceparent} header, or null), and one
 * index, on {@code completed_at}, which serves both the retention delete and the per-minute report
 * (SQL Server: the clustered index). A message can have several rows (at-least-once leases,
 * a requeued dead letter), so {@code message_id} is not a key.
 *
 * <p><b>Clocks.</b> {@code enqueued_at} is the database's clock, as the queue wrote it; every
 * other time comes from the caller, {@code completed_at} included: H2's clock stands still for a
 * whole transaction (it would record the delivery's start as its end), and one clock for claim and
 * completion makes processing times exact. Time in queue therefore spans two clocks, as the
 * consumer's latency statistics do: skew between the database and the servers shows up in it.
 *
 * <p><b>Transactions.</b> {@link #record} and {@link #recordAll} run in the caller's transaction
 * and neither commit nor roll back. {@link #createIfMissing} and {@link #deleteOlderThan} commit
 * their own work; call them on a connection that is not part of another transaction.
 *
 * <p><b>Threads.</b> Immutable and thread-safe; use each connection on one thread at a time.
 */
public final class CompletionJournal {

    /** The journal's name: the queue's plus this suffix. */
    public static final String SUFFIX = "_journal";
    /** Rows deleted per retention transaction. */
    public static final int RETENTION_BATCH = 500;

    private static final Logger LOG = Logger.getLogger(CompletionJournal.class.getName());

    private final Dialect dialect;
    private final TableName name;
    private final String queueTable;
    private final JournalSql sql;
    private final int retentionBatch;

    /** The journal of {@code queue}, in the same schema and database. Writes nothing. */
    public CompletionJournal(QueueTable queue) {
        this(queue.dialect(), queue.name().withSuffix(SUFFIX), queue.dialect().qualified(queue.name()), RETENTION_BATCH);
    }

    private CompletionJournal(Dialect dialect, TableName name, String queueTable, int retentionBatch) {
        this.dialect = dialect;
        this.name = name;
        this.queueTable = queueTable;
        this.sql = dialect.journalSql(name);
        this.retentionBatch = retentionBatch;
    }

    /** The same journal with another retention batch size (tests show the batching with a few rows). */
    CompletionJournal withRetentionBatch(int rows) {
        return new CompletionJournal(dialect, name, queueTable, rows);
    }

    public TableName name() {
        return name;
    }

    /**
     * Creates the journal table and its index where missing, and commits; safe when several servers
     * start at once. Call it on a connection that is not part of another transaction.
     */
    public void createIfMissing(Connection c) throws SQLException {
        SchemaCreation.createIfMissing(c, dialect, "sqlqueue:" + name,
                new SchemaCreation.Table(TableDefinition.JOURNAL, name));
    }

    /** Writes one row in the caller's transaction: rolled back with it, committed with it. */
    public void record(Connection c, JournalEntry entry) throws SQLException {
        Objects.requireNonNull(entry, "entry");
        try (SqlTemplate.Bound b = sql.insert().prepare(c)) {
            bind(b, entry).executeUpdate();
        }
    }

    /**
     * Writes one row per entry in one JDBC batch, in the caller's transaction (for batch
     * deliveries). An empty list writes nothing.
     *
     * @throws IllegalArgumentException for a null entry, before anything is written
     */
    public void recordAll(Connection c, List<JournalEntry> entries) throws SQLException {
        Objects.requireNonNull(entries, "entries");
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i) == null) {
                throw new IllegalArgumentException("entries[" + i + "] is null");
            }
        }
        if (entries.isEmpty()) {
            return;
        }
        try (SqlTemplate.Bound b = sql.insert().prepare(c)) {
            PreparedStatement statement = b.statement();
            for (JournalEntry e : entries) {
                bind(b, e);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    private SqlTemplate.Bound bind(SqlTemplate.Bound b, JournalEntry e) throws SQLException {
        return b.setLong("messageId", e.messageId())
                .setObject("enqueuedAt", dialect.timestampParameter(e.enqueuedAt()))
                .setObject("claimedAt", dialect.timestampParameter(e.claimedAt()))
                .setObject("completedAt", dialect.timestampParameter(e.completedAt()))
                .setInt("attempts", e.attempts())
                .setString("outcome", e.outcome().sqlValue())
                .setString("consumer", e.consumer())
                .setString("traceId", e.traceId());
    }

    /**
     * Deletes the rows completed more than {@code retention} ago (by this server's clock, like the
     * {@code completed_at} it wrote) and returns how many. Cheap when there is nothing to delete, so
     * a poller can call it when idle: it works in batches of {@value #RETENTION_BATCH} rows, each
     * statement its own short transaction, and rows other transactions hold are left for later.
     * The connection's auto-commit mode is restored afterwards; if a batch fails it is rolled back,
     * earlier batches stay committed, and the exception propagates.
     *
     * @throws IllegalArgumentException for a retention that is not positive
     */
    public int deleteOlderThan(Connection c, Duration retention) throws SQLException {
        if (retention == null || retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("retention must be positive, was " + retention);
        }
        return deleteCompletedBefore(c, Instant.now().minus(retention));
    }

    /** As {@link #deleteOlderThan}, with the cutoff itself. */
    int deleteCompletedBefore(Connection c, Instant cutoff) throws SQLException {
        int deleted = BatchedTransactions.run(c, Integer.MAX_VALUE, retentionBatch, "retention of " + name,
                size -> dialect.deleteBatchBefore(c, sql.deleteBefore(), size, cutoff));
        if (deleted > 0) {
            LOG.log(Level.FINE, "Deleted {0} journal rows completed before {1} from {2}",
                    new Object[] {deleted, cutoff, name});
        }
        return deleted;
    }

    /**
     * The per-minute report over the journal, as SQL for this database, without parameters: for
     * each minute of {@code completed_at} in the last {@code window} (by the database clock), oldest
     * first, the columns {@code minute_start} (UTC), {@code messages}, {@code dead_lettered},
     * {@code avg_queue_ms} and {@code p95_queue_ms} (time in queue: {@code claimed_at −
     * enqueued_at}), {@code avg_processing_ms} and {@code p95_processing_ms}
     * ({@code completed_at − claimed_at}). The p95 is interpolated ({@code PERCENTILE_CONT(0.95)}).
     * Every finished delivery counts, dead-lettered ones included. It reads one range of the
     * {@code completed_at} index.
     *
     * @param window at least one minute; whole minutes count
     */
    public String perMinuteTimingsSql(Duration window) {
        if (window == null || window.toMinutes() < 1) {
            throw new IllegalArgumentException("window must be at least one minute, was " + window);
        }
        return dialect.perMinuteTimings(sql.tableName(), (int) Math.min(window.toMinutes(), Integer.MAX_VALUE));
    }

    /**
     * The companion report, as SQL for this database, without parameters: messages still in the
     * queue table that were claimed and did not complete. A delivery that does not finish leaves no
     * journal row (the row is written in the delivery's transaction), so this reads the queue
     * table. Columns: {@code id, attempts, enqueued_at, visible_at, last_error, reason}, oldest
     * first, where {@code reason} is
     * <ul>
     * <li>{@code lease_expired}: claimed under a lease that ran out with neither an ack nor a nack
     *     (the consumer died, hung, or took longer than its lease); it is visible again and will be
     *     redelivered, or dead-lettered if that was its last attempt;</li>
     * <li>{@code retry_scheduled}: a delivery failed (transaction rolled back, or nack) and the
     *     message waits out its back-off until {@code visible_at};</li>
     * <li>{@code retry_ready}: a delivery failed and the message is ready again.</li>
     * </ul>
     * Deliveries in progress are not listed (a live lease; a transacted claim counts no attempt
     * until it fails). Dead letters are in the dead-letter table. It scans the queue table, so it
     * is for operators, not for pollers.
     */
    public String unfinishedDeliveriesSql() {
        return dialect.unfinishedDeliveries(queueTable);
    }

    @Override
    public String toString() {
        return "CompletionJournal[" + name + " on " + dialect.name() + "]";
    }
}
