package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.UndeliverableMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * attemptCounting=beforeDelivery: the messages were leased in a committed transaction before the
 * delivery began, which counted the attempt; inside the delivery transaction they are deleted
 * under that lease. A delivery that never finishes (the server died) has been counted, and its
 * messages come back when the lease runs out.
 *
 * <p>The committed lease is either a transaction of its own or, in a backlog, the previous
 * delivery's: with {@code leaseNext} this delivery's transaction leases the thread's next messages
 * after the bean, so each delivery commits once instead of twice. A rollback takes that lease back
 * with the rest; the next messages' attempt is still counted before they reach the bean.
 */
final class LeasedTake implements Take {

    private final QueueActivation activation;
    private final List<LeasedMessage> leased;
    private final boolean leasesNext;
    private final List<LeasedMessage> taken = new ArrayList<>();
    private final List<UndeliverableMessage> nextDeadLettered = new ArrayList<>();
    private List<LeasedMessage> next = List.of();
    private boolean committed;

    LeasedTake(QueueActivation activation, List<LeasedMessage> leased, boolean leasesNext) {
        this.activation = activation;
        this.leased = leased;
        this.leasesNext = leasesNext;
    }

    /**
     * Leases the activation's next messages on {@code c}, in its transaction or auto-commit,
     * counting the attempt. Rows the lease moves to the dead-letter table instead (undeliverable,
     * or out of attempts) are added to {@code deadLettered}, their journal rows written on {@code c}.
     */
    static List<LeasedMessage> lease(QueueActivation activation, Connection c, List<UndeliverableMessage> deadLettered)
            throws SQLException {
        List<LeasedMessage> leased = activation.table().lease(c, activation.claimSize,
                Duration.ofMillis(activation.spec.getLeaseTime()), deadLettered::add);
        for (UndeliverableMessage m : deadLettered) {
            activation.outcomes.journalDeadLettered(c, m);
        }
        return leased;
    }

    @Override
    public List<QueueMessage> take(Connection c) throws SQLException {
        taken.addAll(activation.table().ackAll(c, leased)); // a lease another consumer took over is theirs
        return taken.stream().map(LeasedMessage::message).toList();
    }

    @Override
    public boolean leasesNext() {
        return leasesNext && !taken.isEmpty();
    }

    @Override
    public void leaseNext(Connection c) throws SQLException {
        next = lease(activation, c, nextDeadLettered);
    }

    /** The thread's next messages, leased by this delivery's committed transaction; null when it leased none. */
    List<LeasedMessage> next() {
        return committed && !next.isEmpty() ? next : null;
    }

    @Override
    public boolean foundNothing() {
        return false; // there were leases; any lost to another consumer are theirs to deliver
    }

    @Override
    public void committed() {
        committed = true;
        nextDeadLettered.forEach(activation.outcomes::countDeadLettered);
    }

    @Override
    public void giveBack() {
        activation.outcomes.giveBack(leased);
    }

    @Override
    public void failed(String error, Instant claimedAt) {
        activation.outcomes.failed(taken, error, claimedAt);
    }
}
