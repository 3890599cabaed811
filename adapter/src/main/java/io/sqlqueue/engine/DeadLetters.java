package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The operator's tools for one queue's dead-letter table: put dead letters back into the queue
 * once their cause is fixed, and purge old ones. Obtained from {@link QueueTable#deadLetters()}.
 *
 * <p><b>Transactions.</b> Unlike the rest of the engine, both operations manage their own
 * transactions: they work in batches of a bounded size, each batch a transaction of its own
 * (one statement, except a requeue on H2), committed before the next starts, so that neither ever holds many locks
 * for long. The connection's auto-commit mode is restored afterwards. If a batch fails it is
 * rolled back and the exception propagates; the batches before it stay committed (their count is
 * logged). Call them on a connection that is not part of another transaction.
 *
 * <p><b>Concurrency.</b> Consumers may keep working meanwhile. On SQL Server and PostgreSQL rows
 * other transactions hold are skipped, so two operators can run the same operation at once without
 * moving anything twice; on H2 they wait for each other.
 *
 * <p><b>Errors.</b> Bad arguments fail before any SQL runs; database errors propagate as
 * {@link SQLException}.
 *
 * <p><b>Threads.</b> Immutable and thread-safe; use each connection on one thread at a time.
 */
public final class DeadLetters {

    /** Dead letters moved per transaction: bodies may be large, so batches stay small. */
    public static final int REQUEUE_BATCH = 100;
    /** Dead letters deleted per transaction (well below SQL Server's lock-escalation threshold). */
    public static final int PURGE_BATCH = 500;

    /** Tries of one requeue batch that meets a message enqueued meanwhile with the same dedup key. */
    private static final int TRIES_PER_BATCH = 3;

    private static final Logger LOG = Logger.getLogger(DeadLetters.class.getName());

    private final Dialect dialect;
    private final TableName queue;
    private final TableName table;
    private final QueueSql sql;
    private final int requeueBatch;
    private final int purgeBatch;

    DeadLetters(Dialect dialect, TableName queue, TableName table, QueueSql sql) {
        this(dialect, queue, table, sql, REQUEUE_BATCH, PURGE_BATCH);
    }

    private DeadLetters(Dialect dialect, TableName queue, TableName table, QueueSql sql, int requeueBatch,
            int purgeBatch) {
        this.dialect = dialect;
        this.queue = queue;
        this.table = table;
        this.sql = sql;
        this.requeueBatch = requeueBatch;
        this.purgeBatch = purgeBatch;
    }

    /** The same operations with other batch sizes (tests show the batching with a few rows). */
    DeadLetters withBatchSizes(int requeueBatch, int purgeBatch) {
        return new DeadLetters(dialect, queue, table, sql, requeueBatch, purgeBatch);
    }

    /** The dead-letter table. */
    public TableName name() {
        return table;
    }

    /**
     * Moves up to {@code max} dead letters back into the queue, oldest failure first, and returns
     * how many it moved.
     *
     * <p>A moved message is ready at once with {@code attempts} 0, so it gets the full
     * {@code maxAttempts} again. It keeps its body, headers, priority, dedup key,
     * {@code enqueued_at} (latency keeps counting from the first enqueue) and {@code last_error}
     * (the reason it was dead-lettered, until a new failure replaces it). It gets a <b>new id</b>,
     * on every database alike: PostgreSQL's identity column does not take explicit ids and SQL
     * Server's only under IDENTITY_INSERT, which needs ALTER permission. It therefore queues behind
     * the messages already waiting at its priority.
     *
     * <p>A dead letter whose dedup key belongs to a message in the queue stays in the dead-letter
     * table, untouched and not counted, as a duplicate enqueue would write nothing; so does one
     * with an older dead letter of the same key (that one goes first). A later requeue moves it
     * once the key is free. Nothing is lost: a dead letter leaves its table in the same transaction
     * that puts it into the queue (one statement on SQL Server and PostgreSQL).
     *
     * <p>Works in batches of {@value #REQUEUE_BATCH}, each one transaction (see the class comment).
     *
     * @param max at least 1
     * @throws IllegalArgumentException for {@code max} below 1
     */
    public int requeue(Connection c, int max) throws SQLException {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
        int moved = BatchedTransactions.run(c, max, requeueBatch, "requeue from " + table,
                size -> requeueBatch(c, size));
        LOG.log(Level.INFO, "Moved {0} dead letters from {1} back into {2}", new Object[] {moved, table, queue});
        return moved;
    }

    private int requeueBatch(Connection c, int size) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return sql.requeue.move(c, size);
            } catch (SQLException e) {
                if (!dialect.isUniqueViolation(e) || attempt == TRIES_PER_BATCH) {
                    throw e;
                }
                // A message with the dedup key of a dead letter in this batch was enqueued after the
                // batch looked. The rollback undoes whatever the batch did; the next try sees the
                // queued message and leaves that dead letter behind.
                c.rollback();
            }
        }
    }

    /**
     * Deletes the dead letters that failed before {@code cutoff} ({@code failed_at}, the database
     * clock in UTC) and returns how many it deleted. Works in batches of {@value #PURGE_BATCH} rows,
     * each one transaction (see the class comment); rows other transactions hold are left for a
     * later purge.
     */
    public int purgeFailedBefore(Connection c, Instant cutoff) throws SQLException {
        Objects.requireNonNull(cutoff, "cutoff");
        int purged = BatchedTransactions.run(c, Integer.MAX_VALUE, purgeBatch, "purge of " + table,
                size -> dialect.deleteBatchBefore(c, sql.purgeDeadLetters, size, cutoff));
        LOG.log(Level.INFO, "Purged {0} dead letters that failed before {1} from {2}",
                new Object[] {purged, cutoff, table});
        return purged;
    }

    @Override
    public String toString() {
        return "DeadLetters[" + table + " of " + queue + " on " + dialect.name() + "]";
    }
}
