package io.sqlqueue.inbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.SQLException;

/**
 * How a delivery thread delivers its next message (or batch), in the activation's {@link Mode},
 * chosen once when the bean is activated. Each mode reads as one sequence in one method: claim →
 * {@code beforeDelivery} → {@code onMessage} → record → {@code afterDelivery} → settle. One
 * instance per delivery thread.
 */
interface DeliverySequence {

    /** The three ways a bean gets its messages. */
    enum Mode {
        /** A bean without a transaction: leased, acknowledged when {@code onMessage} returns ({@link UntransactedSequence}). */
        UNTRANSACTED,
        /** attemptCounting=beforeDelivery, the default: leased and counted, then deleted in the bean's transaction ({@link CountedBeforeDelivery}). */
        COUNTED_BEFORE_DELIVERY,
        /** attemptCounting=afterRollback: claimed in the bean's transaction, a failure counted after it ({@link CountedAfterRollback}). */
        COUNTED_AFTER_ROLLBACK;

        static Mode of(boolean transacted, boolean countsBeforeDelivery) {
            return !transacted ? UNTRANSACTED : countsBeforeDelivery ? COUNTED_BEFORE_DELIVERY : COUNTED_AFTER_ROLLBACK;
        }
    }

    /**
     * Delivers the next message (or batch). False when this delivery thread should stop: the queue
     * is empty for now, the container began no transaction, or the adapter's own statements failed
     * (nothing is counted against the messages then, and the poller waits a little).
     */
    boolean deliverNext(MessageEndpoint endpoint, DeliveryConnections.Channel channel)
            throws SQLException, ResourceException, NoSuchMethodException;

    /** The thread ends: what it holds for a next delivery goes back, uncounted. */
    default void end() {
    }

    /** A new thread's sequence, in the activation's mode. */
    static DeliverySequence of(QueueActivation activation, Delivery thread) {
        return switch (activation.mode) {
            case UNTRANSACTED -> new UntransactedSequence(activation, thread);
            case COUNTED_BEFORE_DELIVERY -> new CountedBeforeDelivery(activation, thread);
            case COUNTED_AFTER_ROLLBACK -> new CountedAfterRollback(activation, thread);
        };
    }
}
