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
 */
final class Leases {

    private final QueueActivation activation;

    Leases(QueueActivation activation) {
        this.activation = activation;
    }

    /**
     * Leases the next messages in a transaction of their own, committed before the delivery
     * begins; null when none was ready. Rows moved to the dead-letter table are counted here; the
     * list can be empty because of them.
     */
    List<LeasedMessage> leaseCommitted(DeliveryConnections.Channel channel) throws SQLException {
        Connection c = channel.claimConnection(); // no transaction is open yet: the lease commits at once
        try {
            List<UndeliverableMessage> deadLettered = new ArrayList<>();
            DeliveryOutcomes.Call<List<LeasedMessage>> lease = () -> lease(c, deadLettered);
            // With a journal, its dead_lettered rows commit with the moves; without one, the lease and each
            // move commit by themselves (auto-commit), so that the engine can retry a lost lock wait.
            List<LeasedMessage> leased = activation.journal() == null ? lease.run()
                    : DeliveryOutcomes.inTransaction(c, lease);
            deadLettered.forEach(activation.outcomes::countDeadLettered);
            return leased.isEmpty() && deadLettered.isEmpty() ? null : leased;
        } finally {
            channel.release(c);
        }
    }

    /**
     * Leases the next messages on {@code c}, in its transaction or auto-commit. Rows moved to the
     * dead-letter table are added to {@code deadLettered} (the caller counts them once the
     * transaction has committed), their journal rows written on {@code c}.
     */
    List<LeasedMessage> lease(Connection c, List<UndeliverableMessage> deadLettered) throws SQLException {
        List<LeasedMessage> leased = activation.table().lease(c, activation.settings.claimSize(),
                activation.settings.leaseTime(), deadLettered::add);
        for (UndeliverableMessage m : deadLettered) {
            activation.outcomes.journalDeadLettered(c, m);
        }
        return leased;
    }
}
