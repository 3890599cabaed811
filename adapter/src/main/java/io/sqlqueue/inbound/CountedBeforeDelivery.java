package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.LeasedMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * attemptCounting=beforeDelivery, the default for a transacted bean: the messages are leased in a
 * committed transaction before the delivery begins, which counts the attempt, and deleted under
 * that lease inside the bean's transaction. A delivery that never finishes (the server died in
 * it) has been counted, and its messages come back when the lease runs out.
 *
 * <p>A thread leases {@code leaseAhead} messages at a time ({@link ReadAhead}), in a transaction of
 * its own or, in a backlog, inside the delivery that hands out the last of the previous ones: each
 * delivery commits once, and a lease costs one statement per {@code leaseAhead} messages. Not for
 * ordered delivery, whose next message of a key waits for this one's commit.
 */
final class CountedBeforeDelivery implements DeliverySequence {

    private final QueueActivation activation;
    private final DeliveryOutcomes outcomes;
    private final ActivationSettings settings;
    private final Delivery thread;
    private final ReadAhead readAhead;

    CountedBeforeDelivery(QueueActivation activation, Delivery thread) {
        this.activation = activation;
        this.outcomes = activation.outcomes;
        this.settings = activation.settings;
        this.thread = thread;
        this.readAhead = new ReadAhead(activation, new Leases(activation));
    }

    @Override
    public boolean deliverNext(MessageEndpoint endpoint, DeliveryConnections.Channel channel)
            throws SQLException, ResourceException, NoSuchMethodException {
        // claim: leased and counted before delivery, ahead by a committed transaction of this thread, or now
        List<LeasedMessage> leased = readAhead.next(channel);
        thread.took(leased != null);
        if (leased == null) {
            return false; // nothing ready
        }
        if (leased.isEmpty()) {
            return true; // the lease found only rows for the dead-letter table
        }
        Instant claimedAt = Instant.now();
        BeanTransaction transaction;
        try {
            transaction = BeanTransaction.begin(activation, endpoint, channel);
        } catch (ResourceException | NoSuchMethodException | RuntimeException e) {
            outcomes.giveBack(leased); // the bean never saw them
            throw e;
        }
        if (transaction == null) {
            outcomes.giveBack(leased);
            return false;
        }
        Fault fault = null;
        List<LeasedMessage> taken = List.of();
        List<QueueMessage> messages = List.of();
        try { // deleted in the bean's transaction; a lease another consumer took over is theirs
            taken = activation.table().ackAll(transaction.connection(), leased);
            messages = taken.stream().map(LeasedMessage::message).toList();
        } catch (Throwable t) {
            fault = Fault.ofAdapter(t);
        }
        if (fault == null && !messages.isEmpty()) {
            try {
                Delivery.deliver(activation, endpoint, messages);
            } catch (Throwable t) {
                fault = Fault.ofBean(t);
            }
        }
        if (fault == null && !messages.isEmpty() && transaction.active()) {
            try { // record: in the transaction, the journal's rows and the thread's next lease
                Connection c = transaction.connection();
                outcomes.journalCompleted(c, messages, claimedAt);
                if (readAhead.isEmpty() && !settings.ordered() && thread.goesOn()) {
                    readAhead.lease(c);
                }
            } catch (Throwable t) {
                fault = Fault.ofAdapter(t);
            }
        }
        fault = transaction.end(fault);
        readAhead.settled(fault == null);
        return switch (transaction.settle(fault, messages.size())) {
            case COMMITTED, NOTHING -> true;
            case GIVE_BACK -> {
                outcomes.giveBack(leased);
                yield false;
            }
            case COUNT_FAILURE -> {
                outcomes.failed(taken, fault.failure(settings.exceptionPolicy()), claimedAt);
                yield true;
            }
            case POSTPONE -> {
                outcomes.postpone(taken, fault.describe());
                yield true;
            }
        };
    }

    @Override
    public void end() {
        readAhead.giveBack();
    }
}
