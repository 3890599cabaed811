package io.sqlqueue.inbound;

import io.sqlqueue.api.BatchQueueListener;
import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.UndeliverableMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.work.Work;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

/**
 * One delivery thread: takes an endpoint and delivers message after message (one
 * {@code beforeDelivery}/{@code afterDelivery} pair each, all on this thread) until the queue is
 * empty or the activation stops.
 *
 * <p>A delivery starts with a short committed lease that hides the next messages from other
 * consumers and counts the attempt, so a delivery that never finishes (the server killed in
 * {@code onMessage}) has still been counted, and the message comes back when the lease runs out.
 * A transacted bean then gets them in a {@link TransactedDelivery} ({@link LeasedTake}), whose
 * transaction leases the thread's next messages when it goes on (one commit per delivery in a
 * backlog; not for ordered delivery, whose next message of a key waits for the commit); a bean
 * without a transaction gets them directly, each acknowledged when {@code onMessage} returns. With
 * attemptCounting=afterRollback a transacted delivery claims inside its transaction instead
 * ({@link ClaimedTake}).
 */
final class Delivery implements Work {

    private final QueueActivation activation;
    /** The activation's queue events when the poller's peek saw the messages ready that this delivery was started for. */
    private final long eventsAtPeek;
    /** Whether the first take has yet to tell the poller what it found. */
    private boolean firstTake = true;
    /** Set by {@link #release()}: this delivery ends after its current message. */
    private volatile boolean released;
    /** Leased by the last delivery's committed transaction for this thread's next one, or null. */
    private List<LeasedMessage> leasedAhead;

    Delivery(QueueActivation activation, long eventsAtPeek) {
        this.activation = activation;
        this.eventsAtPeek = eventsAtPeek;
    }

    @Override
    public void run() {
        try (DeliveryConnections.Channel channel = activation.connections.channel()) {
            MessageEndpoint endpoint;
            try {
                endpoint = activation.factory.createEndpoint(channel.xaResource());
            } catch (UnavailableException e) {
                activation.backOff(activation.spec.getPollInterval()); // the MDB pool is full: claim nothing
                return;
            }
            try {
                while (goesOn() && deliverNext(endpoint, channel)) {
                    // next message
                }
            } finally {
                if (leasedAhead != null) {
                    activation.outcomes.giveBack(leasedAhead); // stopped with the next lease taken: uncounted
                }
                endpoint.release();
            }
        } catch (SQLException | ResourceException | NoSuchMethodException | RuntimeException e) {
            activation.monitor.failed(describe(e));
            QueueActivation.log(Level.WARNING, "delivery from " + activation.spec.getQueue() + " stopped: "
                    + e.getMessage(), e);
        } finally {
            if (firstTake) { // no take ran to the end: it tells nothing about the ready messages
                firstTake = false;
                activation.firstTakeEnded(false, eventsAtPeek);
            }
            activation.deliveryFinished();
        }
    }

    /**
     * A take has found messages (or rows for the dead-letter table), or nothing: the poller learns
     * it at once, so that it backs off when the ready messages it saw were held by others, and goes
     * back to full speed as soon as a take finds something.
     */
    private void took(boolean found) {
        if (found) {
            activation.queueChanged();
        }
        if (firstTake) {
            firstTake = false;
            activation.firstTakeEnded(!found, eventsAtPeek);
        }
    }

    private boolean goesOn() {
        return !released && !activation.stopping() && !activation.paused();
    }

    /**
     * Leases the next messages in a transaction of their own, counting this attempt; null when
     * none was ready. Rows the lease moved to the dead-letter table instead (undeliverable, or out
     * of attempts) are reported here; the list can be empty because of them.
     */
    private List<LeasedMessage> lease(DeliveryConnections.Channel channel) throws SQLException {
        Connection c = channel.claimConnection(); // no transaction is open yet: the lease commits at once
        try {
            List<UndeliverableMessage> deadLettered = new ArrayList<>();
            DeliveryOutcomes.Call<List<LeasedMessage>> lease = () -> LeasedTake.lease(activation, c, deadLettered);
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

    /** Delivers the next message (or batch); false when this delivery thread should stop. */
    private boolean deliverNext(MessageEndpoint endpoint, DeliveryConnections.Channel channel)
            throws SQLException, ResourceException, NoSuchMethodException {
        if (activation.transacted && !activation.countsBeforeDelivery) {
            return new TransactedDelivery(activation, endpoint, channel, new ClaimedTake(activation, this::took)).run();
        }
        List<LeasedMessage> leased = leasedAhead != null ? leasedAhead : lease(channel);
        leasedAhead = null;
        took(leased != null);
        if (leased == null) {
            return false; // nothing ready
        }
        if (leased.isEmpty()) {
            return true; // the lease found only rows for the dead-letter table
        }
        if (activation.transacted) {
            LeasedTake take = new LeasedTake(activation, leased, goesOn() && !activation.ordered);
            boolean more = new TransactedDelivery(activation, endpoint, channel, take).run();
            leasedAhead = take.next();
            return more;
        }
        deliverUntransacted(endpoint, leased);
        return true;
    }

    /** A bean without a transaction: acknowledged when onMessage returns, given back when it throws. */
    private void deliverUntransacted(MessageEndpoint endpoint, List<LeasedMessage> leased)
            throws ResourceException, NoSuchMethodException {
        Instant claimedAt = Instant.now();
        List<QueueMessage> messages = leased.stream().map(LeasedMessage::message).toList();
        Throwable failure = null;
        try {
            endpoint.beforeDelivery(activation.method);
        } catch (ResourceException | NoSuchMethodException | RuntimeException e) {
            activation.outcomes.giveBack(leased); // the bean never saw them
            throw e;
        }
        long started = activation.monitor.delivering(messages);
        try {
            invoke(activation, endpoint, messages);
        } catch (Throwable t) {
            failure = t;
        } finally {
            endpoint.afterDelivery();
            activation.monitor.processed(messages.size(), started);
        }
        if (failure == null) {
            activation.monitor.committed(messages.size());
            activation.outcomes.acknowledge(leased, claimedAt);
        } else {
            activation.monitor.rolledBack(messages.size(), describe(failure));
            activation.outcomes.failed(leased, describe(failure), claimedAt);
        }
    }

    /** Calls the bean's listener method with one message, or a batch. */
    static void invoke(QueueActivation activation, MessageEndpoint endpoint, List<QueueMessage> messages) {
        if (activation.batch) {
            ((BatchQueueListener) endpoint).onMessages(messages);
        } else {
            ((QueueListener) endpoint).onMessage(messages.get(0));
        }
    }

    /** The innermost exception with a message: containers wrap the bean's own in EJBException. */
    static String describe(Throwable t) {
        Throwable best = t;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getMessage() != null) {
                best = c;
            }
        }
        return best.getClass().getName() + (best.getMessage() == null ? "" : ": " + best.getMessage());
    }

    /**
     * Ends this delivery after its current message, and nothing more: WildFly's work manager calls
     * it after every Work that has returned, so stopping the activation here stopped all delivery.
     */
    @Override
    public void release() {
        released = true;
    }
}
