package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.UndeliverableMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * attemptCounting=afterRollback: the claim deletes the next messages inside the bean's
 * transaction, and a failure is counted after the rollback, in a transaction of its own: one
 * statement fewer per delivery than {@link CountedBeforeDelivery} (and a commit fewer for a message
 * that arrives alone), but a delivery that never finishes (the server died in it) is never counted,
 * and a delivery on another thread can catch a message between the rollback and the count (so a
 * bean may see it once more than maxAttempts).
 */
final class CountedAfterRollback implements DeliverySequence {

    private final QueueActivation activation;
    private final DeliveryOutcomes outcomes;
    private final ActivationSettings settings;
    private final Delivery thread;

    CountedAfterRollback(QueueActivation activation, Delivery thread) {
        this.activation = activation;
        this.outcomes = activation.outcomes;
        this.settings = activation.settings;
        this.thread = thread;
    }

    @Override
    public boolean deliverNext(MessageEndpoint endpoint, DeliveryConnections.Channel channel)
            throws ResourceException, NoSuchMethodException {
        Instant claimedAt = Instant.now();
        BeanTransaction transaction = BeanTransaction.begin(activation, endpoint, channel); // nothing claimed yet
        if (transaction == null) {
            return false;
        }
        Fault fault = null;
        List<QueueMessage> claimed = List.of();
        List<UndeliverableMessage> deadLettered = new ArrayList<>();
        try { // claim: deleted in the bean's transaction; rows for the dead-letter table moved there in it
            Connection c = transaction.connection();
            claimed = activation.table().claim(c, settings.claimSize(), deadLettered::add);
            thread.took(!claimed.isEmpty() || !deadLettered.isEmpty()); // before the bean: the poller's back-off depends on it
            for (UndeliverableMessage m : deadLettered) {
                outcomes.journalDeadLettered(c, m);
            }
        } catch (Throwable t) {
            fault = Fault.ofAdapter(t);
        }
        if (fault == null && !claimed.isEmpty()) {
            try {
                Delivery.deliver(activation, endpoint, claimed);
            } catch (Throwable t) {
                fault = Fault.ofBean(t);
            }
        }
        if (fault == null && !claimed.isEmpty() && transaction.active()) {
            try { // record: the journal's rows, in the transaction
                outcomes.journalCompleted(transaction.connection(), claimed, claimedAt);
            } catch (Throwable t) {
                fault = Fault.ofAdapter(t);
            }
        }
        fault = transaction.end(fault);
        boolean foundNothing = claimed.isEmpty() && deadLettered.isEmpty();
        return switch (transaction.settle(fault, claimed.size())) {
            case COMMITTED -> {
                deadLettered.forEach(activation.outcomes::countDeadLettered);
                yield !foundNothing;
            }
            case NOTHING -> !foundNothing;
            case GIVE_BACK -> false; // the rollback put the claimed rows back untouched: nothing was counted
            case COUNT_FAILURE -> {
                outcomes.recordFailures(claimed, fault.failure(settings.exceptionPolicy()), claimedAt);
                yield true;
            }
            case POSTPONE -> {
                outcomes.postponeClaimed(claimed, fault.describe());
                yield true;
            }
        };
    }
}
