package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Maintenance work on many rows (requeueing dead letters, purging, journal retention) done as a
 * series of short transactions, each committed before the next starts: no long transaction, no
 * lock escalation, and consumers working on the same tables wait at most one batch.
 */
final class BatchedTransactions {

    private static final Logger LOG = Logger.getLogger(BatchedTransactions.class.getName());

    private BatchedTransactions() {
    }

    /** One batch of the work. */
    @FunctionalInterface
    interface Batch {
        /**
         * Does up to {@code size} rows of the work in the current transaction and returns how many
         * it did. It may roll back and redo its own work; it never commits.
         */
        int run(int size) throws SQLException;
    }

    /**
     * Runs batches of up to {@code batchSize} rows, each in a transaction of its own, until a batch
     * does fewer rows than it was given (nothing left, or the rest is held by other transactions)
     * or {@code limit} rows are done, and returns the rows done.
     *
     * <p>The connection's auto-commit mode is restored afterwards, also on failure. A failing batch
     * is rolled back and its exception propagates; the batches before it stay committed. Call it on
     * a connection that is not part of another transaction: the first commit would commit that
     * transaction's work too.
     *
     * @param what names the work for the log, e.g. {@code "requeue from orders_dlq"}
     */
    static int run(Connection c, int limit, int batchSize, String what, Batch batch) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        int done = 0;
        try {
            c.setAutoCommit(false);
            while (done < limit) {
                int size = Math.min(batchSize, limit - done);
                int n = inOneTransaction(c, size, batch);
                done += n;
                if (n < size) {
                    break;
                }
            }
        } catch (SQLException | RuntimeException | Error e) {
            restoreAutoCommit(c, autoCommit, e);
            if (done > 0) {
                LOG.log(Level.WARNING, "{0}: {1} rows were done and committed before a batch failed; that batch"
                        + " was rolled back", new Object[] {what, done});
            }
            throw e;
        }
        c.setAutoCommit(autoCommit);
        return done;
    }

    private static int inOneTransaction(Connection c, int size, Batch batch) throws SQLException {
        try {
            int n = batch.run(size);
            c.commit();
            return n;
        } catch (SQLException | RuntimeException | Error e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    private static void restoreAutoCommit(Connection c, boolean autoCommit, Throwable failure) {
        try {
            c.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }
}
