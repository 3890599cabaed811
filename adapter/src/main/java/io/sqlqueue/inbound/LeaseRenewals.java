package io.sqlqueue.inbound;

import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.QueueTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

/**
 * The leases of an activation's deliveries to a bean without a transaction, kept while the bean
 * works: every third of {@code leaseTime} each is extended to run out {@code leaseTime} from then,
 * fenced by its token ({@link QueueTable#renew}), those that fall due together in one round trip.
 * So a handler may take longer than {@code leaseTime} without another consumer taking its messages
 * over, as long as this server lives; should it die, its leases run out and the messages come back
 * as before.
 *
 * <p>The activation's {@link Poller} renews, between its looks at the queue and waking for the next
 * due time. Not a timer of {@code BootstrapContext.createTimer()}: that is a {@code java.util.Timer},
 * one thread per timer the server need not manage, whose tasks wait for each other (a shared timer
 * serialised other beans in Payara Cloud Connectors), and renewing is a database round trip. The
 * poller is already the activation's long-running work, on the work manager.
 *
 * <p>A renewal that finds a lease taken over (its token changed: it ran out, as when the server
 * stalled or could not reach the database for {@code leaseTime}, and another consumer leased the
 * message; or the row is gone) stops renewing it, and says so once, at WARNING and in the consumer
 * bean's last error; the delivery then does not acknowledge it, for the message is the new
 * holder's. A renewal that fails (the database briefly unreachable) is tried again at the next due
 * time: the leases still stand until they run out, and every change is fenced by its token.
 *
 * <p>Thread-safe: delivery threads {@link #hold} and {@link Lease#end} leases, the poller renews.
 */
final class LeaseRenewals {

    private final QueueActivation activation;
    private final ActivationSettings settings;
    private final ConsumerMonitor monitor;
    /** A third of {@code leaseTime}: a lease is extended twice before it could run out. */
    private final long periodNanos;
    private final Set<Lease> leases = ConcurrentHashMap.newKeySet();
    /**
     * The System.nanoTime() until which the poller waits at most: a lease falling due sooner wakes it.
     * Set before the poller reads the due times, so that a lease added meanwhile is either read or
     * wakes it.
     */
    private volatile long pollerWakesAt = System.nanoTime();
    /** Whether the last renewal failed: a failing spell is logged once. Poller's thread only. */
    private boolean failing;

    LeaseRenewals(QueueActivation activation) {
        this.activation = activation;
        this.settings = activation.settings;
        this.monitor = activation.monitor;
        this.periodNanos = settings.leaseTime().toNanos() / 3;
    }

    /**
     * The lease of a delivery's messages, just taken: renewed until {@link Lease#end}, which the
     * delivery calls in a {@code finally} once {@code afterDelivery} has returned.
     */
    Lease hold(List<LeasedMessage> leased) {
        Lease lease = new Lease(leased, System.nanoTime() + periodNanos);
        leases.add(lease);
        if (lease.dueNanos - pollerWakesAt < 0) {
            activation.wakeForRenewal(); // the poller waits longer than this lease may
        }
        return lease;
    }

    /** Whether some delivery holds a lease. */
    boolean any() {
        return !leases.isEmpty();
    }

    /**
     * For the poller, about to wait until {@code deadline} (System.nanoTime()): the nanoseconds until
     * the deadline or the next renewal, whichever is sooner.
     */
    long nanosToWait(long deadline) {
        pollerWakesAt = deadline;
        long wake = deadline;
        for (Lease l : leases) {
            long due = l.dueNanos;
            if (l.renewable() && due - wake < 0) {
                wake = due;
            }
        }
        pollerWakesAt = wake;
        return wake - System.nanoTime();
    }

    /**
     * Renews the leases that are due, in one round trip per {@link QueueTable#MAX_CLAIM} messages, on
     * a connection of its own; does nothing when none is due. Never throws. Poller's thread only.
     */
    void renewDue() {
        if (leases.isEmpty()) {
            return; // the poller's every turn: no allocation while nothing is leased
        }
        long now = System.nanoTime();
        List<Lease> due = new ArrayList<>();
        for (Lease l : leases) {
            if (l.startRenewal(now)) {
                due.add(l);
            }
        }
        if (due.isEmpty()) {
            return;
        }
        List<LeasedMessage> messages = new ArrayList<>();
        due.forEach(l -> messages.addAll(l.renewing));
        Set<LeasedMessage> lost = new HashSet<>();
        try (Connection c = activation.connections.plain()) {
            QueueTable table = activation.table();
            for (int from = 0; from < messages.size(); from += QueueTable.MAX_CLAIM) {
                lost.addAll(table.renew(c, messages.subList(from, Math.min(messages.size(),
                        from + QueueTable.MAX_CLAIM)), settings.leaseTime()));
            }
        } catch (SQLException | RuntimeException e) {
            // Still fenced, and standing until they run out: the next due time tries again.
            due.forEach(l -> l.renewed(Set.of(), now + periodNanos));
            monitor.failed(Delivery.describe(e));
            QueueActivation.LOG.log(failing ? Level.FINE : Level.INFO, () -> "cannot renew the leases of "
                    + messages.size() + " messages of " + settings.queue() + " in delivery now (" + e.getMessage()
                    + "); trying again in " + TimeUnit.NANOSECONDS.toMillis(periodNanos) + " ms, before they run"
                    + " out unless this lasts");
            failing = true;
            return;
        }
        failing = false;
        // From the time before the round trip: the database set each lease to run out leaseTime after it.
        due.forEach(l -> l.renewed(lost, now + periodNanos));
        lost.forEach(m -> reportTakenOver(m, "while its delivery was still running"));
    }

    /**
     * Says, once per message, that its lease was no longer this delivery's: at WARNING, naming the
     * queue, the message and what to do, and in the consumer bean's last error.
     *
     * @param when when it was found, e.g. "at its acknowledgement"
     */
    void reportTakenOver(LeasedMessage m, String when) {
        long id = m.message().id();
        long leaseTime = settings.leaseTime().toMillis();
        monitor.failed("the lease of message " + id + " was taken over " + when + ": not acknowledged");
        QueueActivation.LOG.warning(() -> "message " + id + " of " + settings.queue() + " is not acknowledged: its"
                + " lease was taken over " + when + ". The lease ran out (leaseTime " + leaseTime + " ms) before"
                + " this server renewed it, as when the server stalls (a long garbage collection, a suspended VM)"
                + " or cannot reach the database for that long, and another consumer leased the message, which"
                + " will deliver it again (or the row is gone). Raise leaseTime above the longest such pause");
    }

    /**
     * One delivery's lease of its messages, renewed by the poller until {@link #end}; once a message
     * is found taken over, it is no longer renewed.
     */
    final class Lease {
        /** The messages whose lease is still this delivery's; guarded by this. */
        private List<LeasedMessage> held;
        /** The messages of the renewal in progress; poller's thread only. */
        private List<LeasedMessage> renewing = List.of();
        private volatile long dueNanos;
        /** Guarded by this. */
        private boolean inRenewal;
        private boolean ended;

        private Lease(List<LeasedMessage> leased, long dueNanos) {
            this.held = leased;
            this.dueNanos = dueNanos;
        }

        private synchronized boolean renewable() {
            return !ended && !held.isEmpty();
        }

        /** The poller takes this lease for a renewal if it is due and the delivery has not ended. */
        private synchronized boolean startRenewal(long now) {
            if (ended || held.isEmpty() || dueNanos - now > 0) {
                return false;
            }
            inRenewal = true;
            renewing = held;
            return true;
        }

        /** The renewal is over: {@code lost} holds the messages found taken over (of any lease). */
        private synchronized void renewed(Set<LeasedMessage> lost, long nextDue) {
            if (!lost.isEmpty()) {
                held = held.stream().filter(m -> !lost.contains(m)).toList();
            }
            renewing = List.of();
            dueNanos = nextDue;
            inRenewal = false;
            notifyAll();
        }

        /**
         * The delivery has ended: no more renewals, after waiting for one in progress (a round trip),
         * so that what it found counts. Returns the messages whose lease is still this delivery's,
         * to acknowledge, record the failure of, or give back; the others have been reported as
         * taken over. Repeated calls return the same.
         */
        synchronized List<LeasedMessage> end() {
            boolean interrupted = false;
            while (inRenewal) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true; // the round trip ends by itself; the interrupt is kept
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (!ended) {
                ended = true;
                leases.remove(this);
            }
            return held;
        }
    }
}
