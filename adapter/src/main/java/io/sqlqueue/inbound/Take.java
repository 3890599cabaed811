package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * How a {@link TransactedDelivery}'s messages leave the queue inside the bean's transaction, and
 * how a failed delivery is counted: {@link LeasedTake} (attemptCounting=beforeDelivery, the
 * default) or {@link ClaimedTake} (afterRollback). Used by one delivery thread.
 */
interface Take {

    /** Hears what a take found as soon as it has run: messages (or rows for the dead-letter table), or nothing. */
    @FunctionalInterface
    interface Report {
        void took(boolean found);
    }

    /** Inside the transaction: deletes the messages there and returns those the bean gets. */
    List<QueueMessage> take(Connection c) throws SQLException;

    /** Whether {@link #leaseNext} is to run in this transaction. */
    default boolean leasesNext() {
        return false;
    }

    /**
     * Inside the transaction, after the bean: leases this delivery thread's next messages there,
     * so that their lease commits with this delivery instead of in a transaction of its own.
     */
    default void leaseNext(Connection c) throws SQLException {
    }

    /** After {@link #take}: whether it found nothing at all, so the queue is empty for now. */
    boolean foundNothing();

    /** The transaction committed. */
    void committed();

    /** The messages never reached the bean, or the rollback was not their fault: back, uncounted. */
    void giveBack();

    /** The bean's delivery rolled back: count the attempt, set the back-off or dead-letter. */
    void failed(String error, Instant claimedAt);
}
