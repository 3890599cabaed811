package io.sqlqueue.inbound;

import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.UndeliverableMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A delivery thread's messages leased ahead (attemptCounting=beforeDelivery): leased and counted
 * {@code leaseAhead} at a time ({@link Leases}), delivered {@code claimSize} at a time, each delivery
 * in a transaction of its own that deletes its messages under their lease. When the last is
 * handed out, that delivery's transaction leases the next ones after the bean, so that in a
 * backlog no delivery commits twice and a lease is one statement per {@code leaseAhead} messages.
 *
 * <p>Those leased in a transaction are the thread's only once it has committed; a rollback takes
 * the lease back with the rest. Messages that waited here for half their lease go back uncounted
 * rather than risk another consumer taking them over mid-delivery. Used by one delivery thread.
 */
final class ReadAhead {

    private final QueueActivation activation;
    private final DeliveryOutcomes outcomes;
    private final ActivationSettings settings;
    private final Leases leases;
    /** Leased by a committed lease, not handed out yet. */
    private final ArrayDeque<LeasedMessage> ready = new ArrayDeque<>();
    /** System.nanoTime() when the ready ones were leased. */
    private long readyLeasedAt;
    /** Leased in the current delivery's transaction, not committed yet. */
    private List<LeasedMessage> pending = List.of();
    private final List<UndeliverableMessage> pendingDeadLettered = new ArrayList<>();
    private long pendingLeasedAt;

    ReadAhead(QueueActivation activation, Leases leases) {
        this.activation = activation;
        this.outcomes = activation.outcomes;
        this.settings = activation.settings;
        this.leases = leases;
    }

    /**
     * The next delivery's messages: leased ahead, or now in a committed lease of their own. Null
     * when none was ready; empty when the lease found only rows for the dead-letter table.
     */
    List<LeasedMessage> next(DeliveryConnections.Channel channel) throws SQLException {
        if (!ready.isEmpty() && System.nanoTime() - readyLeasedAt > settings.leaseTime().toNanos() / 2) {
            giveBack(); // too close to running out: another consumer could take them over mid-delivery
        }
        if (ready.isEmpty()) {
            // while the circuit breaker is open the thread delivers once: it leases nothing ahead
            List<LeasedMessage> leased = leases.leaseCommitted(channel,
                    activation.breaker.isOpen() ? settings.claimSize() : settings.leaseAhead());
            if (leased == null || leased.isEmpty()) {
                return leased;
            }
            ready.addAll(leased);
            readyLeasedAt = System.nanoTime();
        }
        List<LeasedMessage> next = new ArrayList<>(settings.claimSize());
        while (next.size() < settings.claimSize() && !ready.isEmpty()) {
            next.add(ready.poll());
        }
        return next;
    }

    /** Whether every message leased ahead has been handed out: the current delivery leases the next ones. */
    boolean isEmpty() {
        return ready.isEmpty();
    }

    /** Inside the current delivery's transaction, after the bean: leases the thread's next messages there. */
    void lease(Connection c) throws SQLException {
        pendingLeasedAt = System.nanoTime();
        pending = leases.lease(c, settings.leaseAhead(), pendingDeadLettered, false);
    }

    /** The current delivery's transaction ended: its lease is the thread's if it committed, else gone with it. */
    void settled(boolean committed) {
        if (committed && !pending.isEmpty()) {
            ready.addAll(pending);
            readyLeasedAt = pendingLeasedAt;
        }
        if (committed) {
            pendingDeadLettered.forEach(activation.outcomes::countDeadLettered);
        }
        pending = List.of();
        pendingDeadLettered.clear();
    }

    /** The thread stops, or its messages waited too long: those not handed out go back, uncounted. */
    void giveBack() {
        if (!ready.isEmpty()) {
            List<LeasedMessage> back = new ArrayList<>(ready);
            ready.clear();
            outcomes.giveBack(back);
        }
    }
}
