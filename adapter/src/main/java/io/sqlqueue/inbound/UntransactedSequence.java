package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.DeliveryFailure;
import io.sqlqueue.engine.LeasedMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * A bean without a transaction (bean-managed, or NOT_SUPPORTED): its messages are leased, which
 * counts the attempt, and acknowledged when {@code onMessage} returns; when it throws, the failure
 * is recorded (back-off, or the dead-letter table after the last attempt or when it is unrecoverable;
 * while the circuit breaker is open, postponed uncounted). While the bean works,
 * the poller renews the lease ({@link LeaseRenewals}), so a handler may run longer than
 * {@code leaseTime} and is not delivered again meanwhile, as long as this server lives. A message
 * whose lease was taken over all the same (the lease ran out while the server stalled or could not
 * reach the database) is the new holder's: it is neither acknowledged nor recorded here, only reported.
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
        LeaseRenewals.Lease lease = activation.renewals.hold(leased);
        List<LeasedMessage> held;
        Throwable failure = null;
        try {
            try {
                endpoint.beforeDelivery(activation.method);
            } catch (ResourceException | NoSuchMethodException | RuntimeException e) {
                giveBack(lease.end()); // the bean never saw them
                throw e;
            }
            try {
                Delivery.deliver(activation, endpoint, messages);
            } catch (Throwable t) {
                failure = t;
            } finally {
                endpoint.afterDelivery();
            }
        } finally {
            held = lease.end(); // the leases still this delivery's: the others were reported taken over
        }
        if (held.isEmpty()) {
            return true;
        }
        // settle: record: acknowledged with its journal row, or the failure counted (postponed while the breaker is open)
        if (failure == null) {
            monitor.committed(held.size());
            activation.breaker.succeeded();
            outcomes.acknowledge(held, claimedAt);
        } else {
            String error = Delivery.describe(failure);
            monitor.rolledBack(held.size(), error);
            DeliveryFailure recorded = settings.exceptionPolicy().failure(failure);
            // An unrecoverable failure is the message's own, not an outage's: dead-lettered now, breaker or not;
            // one during deactivation likely broke on the undeployment, and tells nothing of the bean's dependency.
            if (recorded.unrecoverable() || activation.stopping() || activation.breaker.failed(error)) {
                outcomes.failed(held, recorded, claimedAt);
            } else {
                outcomes.postpone(held, error);
            }
        }
        return true;
    }

    private void giveBack(List<LeasedMessage> held) {
        if (!held.isEmpty()) {
            outcomes.giveBack(held);
        }
    }
}
