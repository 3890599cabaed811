package io.sqlqueue.inbound;

import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.UndeliverableMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A delivery thread's lease of its next messages, which counts their attempt before they reach
 * the bean: hidden from other consumers for {@code leaseTime}, so that a delivery that never ends
 * (the server killed in {@code onMessage}) has been counted and its messages come back when the
 * lease runs out. Rows the lease finds undeliverable, or out of attempts, go to the dead-letter
 * table instead, with their journal rows.
 *
 * <p>A lease of several messages for a one-message bean ({@code leaseAhead}) takes the head of the
 * queue and, only when the head was never attempted, more messages never attempted: a message
 * already attempted (back from a server that died with it, or from a retry) is leased alone. So a
 * message that kills its server charges the messages leased with it one attempt, once: after that
 * it is leased alone, and so are they.
 */
final class Leases {

    private final QueueActivation activation;
    private final DeliveryOutcomes outcomes;
    private final ActivationSettings settings;

    Leases(QueueActivation activation) {
        this.activation = activation;
        this.outcomes = activation.outcomes;
        this.settings = activation.settings;
    }

    /**
     * Leases up to {@code count} messages in a transaction of their own, committed before the
     * delivery begins; null when none was ready. Rows moved to the dead-letter table are counted
     * here; the list can be empty because of them.
     */
    List<LeasedMessage> leaseCommitted(DeliveryConnections.Channel channel, int count) throws SQLException {
        Connection c = channel.claimConnection(); // no transaction is open yet: the lease commits at once
        try {
            List<UndeliverableMessage> deadLettered = new ArrayList<>();
            // With a journal, its dead_lettered rows commit with the moves; without one, the lease and each
            // move commit by themselves (auto-commit), so that the engine can retry a lost lock wait.
            boolean autoCommit = activation.journal() == null;
            DeliveryOutcomes.Call<List<LeasedMessage>> lease = () -> lease(c, count, deadLettered, autoCommit);
            List<LeasedMessage> leased = autoCommit ? lease.run() : DeliveryOutcomes.inTransaction(c, lease);
            deadLettered.forEach(activation.outcomes::countDeadLettered);
            return leased.isEmpty() && deadLettered.isEmpty() ? null : leased;
        } finally {
            channel.release(c);
        }
    }

    /**
     * Leases up to {@code count} messages on {@code c}, in its transaction or auto-commit: a batch
     * bean's {@code claimSize} at once, else the head of the queue and, when it was never
     * attempted, up to {@code count - 1} more never attempted. Rows moved to the dead-letter table
     * are added to {@code deadLettered} (the caller counts them once the transaction has
     * committed), their journal rows written on {@code c}.
     *
     * @param autoCommit whether each statement on {@code c} commits by itself: then the head's lease has
     *                   committed when the lease of more fails (the connection lost, say), and the head is
     *                   returned alone rather than left hidden for {@code leaseTime}
     */
    List<LeasedMessage> lease(Connection c, int count, List<UndeliverableMessage> deadLettered, boolean autoCommit)
            throws SQLException {
        int claimSize = settings.claimSize();
        List<LeasedMessage> leased = activation.table().lease(c, claimSize, settings.leaseTime(),
                deadLettered::add);
        if (count > claimSize && leased.size() == 1 && leased.get(0).message().attempt() == 1) {
            long head = leased.get(0).message().id();
            leased = new ArrayList<>(leased);
            try {
                leased.addAll(activation.table().leaseUnattempted(c, count - 1, settings.leaseTime(),
                        deadLettered::add));
            } catch (SQLException | RuntimeException e) {
                if (!autoCommit) {
                    throw e; // the transaction rolls back, and the head's lease with it
                }
                QueueActivation.LOG.fine(() -> "leased message " + head + " of "
                        + settings.queue() + " alone: leasing more after it failed (" + e.getMessage() + ")");
            }
        }
        for (UndeliverableMessage m : deadLettered) {
            outcomes.journalDeadLettered(c, m);
        }
        return leased;
    }
}
