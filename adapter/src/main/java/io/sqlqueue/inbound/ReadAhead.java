package io.sqlqueue.inbound;

import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.UndeliverableMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A delivery thread's next messages, leased inside its current delivery's transaction after the
 * bean, so that in a backlog each delivery commits once instead of twice (attemptCounting=
 * beforeDelivery). They are the thread's only once that transaction has committed; a rollback takes
 * the lease back with the rest, and the next messages' attempt is still counted before they reach
 * the bean. Used by one delivery thread.
 */
final class ReadAhead {

    private final Leases leases;
    private final DeliveryOutcomes outcomes;
    /** Leased in the current transaction, not committed yet. */
    private List<LeasedMessage> pending = List.of();
    private final List<UndeliverableMessage> pendingDeadLettered = new ArrayList<>();
    /** Leased by a committed transaction, for the thread's next delivery; null when none. */
    private List<LeasedMessage> ready;

    ReadAhead(Leases leases, DeliveryOutcomes outcomes) {
        this.leases = leases;
        this.outcomes = outcomes;
    }

    /** The messages a committed transaction leased for this delivery, or null; they are the caller's now. */
    List<LeasedMessage> take() {
        List<LeasedMessage> next = ready;
        ready = null;
        return next;
    }

    /** Inside the current delivery's transaction, after the bean: leases the thread's next messages there. */
    void lease(Connection c) throws SQLException {
        pending = leases.lease(c, pendingDeadLettered);
    }

    /** The current delivery's transaction ended: its lease is the thread's if it committed, else gone with it. */
    void settled(boolean committed) {
        if (committed) {
            ready = pending.isEmpty() ? null : pending;
            pendingDeadLettered.forEach(outcomes::countDeadLettered);
        }
        pending = List.of();
        pendingDeadLettered.clear();
    }

    /** The thread stops with its next messages leased: they go back, uncounted. */
    void giveBack() {
        List<LeasedMessage> next = take();
        if (next != null) {
            outcomes.giveBack(next);
        }
    }
}
