package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.LeasedMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * A bean without a transaction (bean-managed, or NOT_SUPPORTED): its messages are leased, which
 * counts the attempt, and acknowledged when {@code onMessage} returns; when it throws, the failure
 * is recorded (back-off, or the dead-letter table after the last attempt; while the circuit breaker
 * is open, postponed uncounted). A handler that runs
 * longer than {@code leaseTime} loses its lease, and another consumer may deliver the message again.
 */
final class UntransactedSequence implements DeliverySequence {

    private final QueueActivation activation;
    private final ConsumerMonitor monitor;
    private final DeliveryOutcomes outcomes;
    private final ActivationSettings settings;
    private final Delivery thread;
    private final Leases leases;

    UntransactedSequence(QueueActivation activation, Delivery thread) {
        this.activation = activation;
        this.monitor = activation.monitor;
        this.outcomes = activation.outcomes;
        this.settings = activation.settings;
        this.thread = thread;
        this.leases = new Leases(activation);
    }

    @Override
    public boolean deliverNext(MessageEndpoint endpoint, DeliveryConnections.Channel channel)
            throws SQLException, ResourceException, NoSuchMethodException {
        // claim: leased and counted in a transaction of its own
        List<LeasedMessage> leased = leases.leaseCommitted(channel, settings.claimSize());
        thread.took(leased != null);
        if (leased == null) {
            return false; // nothing ready
        }
        if (leased.isEmpty()) {
            return true; // the lease found only rows for the dead-letter table
        }
        Instant claimedAt = Instant.now();
        List<QueueMessage> messages = leased.stream().map(LeasedMessage::message).toList();
        try {
            endpoint.beforeDelivery(activation.method);
        } catch (ResourceException | NoSuchMethodException | RuntimeException e) {
            outcomes.giveBack(leased); // the bean never saw them
            throw e;
        }
        Throwable failure = null;
        try {
            Delivery.deliver(activation, endpoint, messages);
        } catch (Throwable t) {
            failure = t;
        } finally {
            endpoint.afterDelivery();
        }
        // settle: record: acknowledged with its journal row, or the failure counted (postponed while the breaker is open)
        if (failure == null) {
            monitor.committed(messages.size());
            activation.breaker.succeeded();
            outcomes.acknowledge(leased, claimedAt);
        } else {
            String error = Delivery.describe(failure);
            monitor.rolledBack(messages.size(), error);
            if (activation.breaker.failed(error)) {
                outcomes.failed(leased, error, claimedAt);
            } else {
                outcomes.postpone(leased, error);
            }
        }
        return true;
    }
}
