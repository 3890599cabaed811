package io.sqlqueue.inbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The container's transaction around one transacted delivery: begun by {@code beforeDelivery},
 * ended by {@code afterDelivery}. The delivery's connection is borrowed after the one (so the
 * server enlists it) and returned before the other; a synchronization learns how the transaction
 * ended. Any fault marks it rollback-only before {@code afterDelivery}, as Artemis' adapter does,
 * because a container does not always do so: a delete commits only with a delivery that reached
 * the bean and was recorded. Used by one delivery thread.
 */
final class BeanTransaction implements Synchronization {

    /** What the messages of a delivery that has ended get. */
    enum Settlement {
        /** The transaction committed. */
        COMMITTED,
        /** Nothing was delivered and nothing failed: nothing to settle. */
        NOTHING,
        /** Back to the queue, uncounted; this delivery thread stops. */
        GIVE_BACK,
        /** The attempt counts: back-off, or the dead-letter table after the last. */
        COUNT_FAILURE,
        /**
         * The bean's failure while the circuit breaker is open: not counted, back to the queue hidden
         * for {@link CircuitBreaker#postponement()}.
         */
        POSTPONE
    }

    private final QueueActivation activation;
    private final ConsumerMonitor monitor;
    private final MessageEndpoint endpoint;
    private final DeliveryConnections.Channel channel;
    private final TransactionSynchronizationRegistry registry;
    private Connection connection;
    private volatile int status = Status.STATUS_UNKNOWN;

    private BeanTransaction(QueueActivation activation, MessageEndpoint endpoint, DeliveryConnections.Channel channel,
            TransactionSynchronizationRegistry registry) {
        this.activation = activation;
        this.monitor = activation.monitor;
        this.endpoint = endpoint;
        this.channel = channel;
        this.registry = registry;
    }

    /**
     * Calls {@code beforeDelivery}, which begins the bean's transaction. Returns null, after
     * {@code afterDelivery}, when the container began none: Payara does so for a transacted bean
     * while it undeploys it, and a delete would then commit at once and a failing delivery lose its
     * message. The poller then waits a little.
     *
     * @throws ResourceException or the others when {@code beforeDelivery} refused: the bean never
     *         ran (enlisting a dead connection fails here), not the messages' fault
     */
    static BeanTransaction begin(QueueActivation activation, MessageEndpoint endpoint,
            DeliveryConnections.Channel channel) throws ResourceException, NoSuchMethodException {
        endpoint.beforeDelivery(activation.method);
        TransactionSynchronizationRegistry registry = activation.adapter.transactionSynchronizationRegistry();
        if (registry.getTransactionKey() == null) {
            QueueActivation.LOG.fine(() -> "no transaction for a delivery from " + activation.settings.queue()
                    + ": nothing taken");
            try {
                endpoint.afterDelivery();
            } catch (ResourceException | RuntimeException e) {
                // nothing was done in it: nothing to undo
            }
            activation.backOff(activation.settings.pollInterval());
            return null;
        }
        BeanTransaction transaction = new BeanTransaction(activation, endpoint, channel, registry);
        try {
            registry.registerInterposedSynchronization(transaction);
        } catch (RuntimeException e) { // the transaction is no longer active: end it, nothing taken
            transaction.markRollbackOnly();
            endpoint.afterDelivery();
            throw new ResourceException("cannot follow the delivery's transaction: " + e.getMessage(), e);
        }
        return transaction;
    }

    /** The delivery's connection, enlisted in this transaction; borrowed once, kept until {@link #end}. */
    Connection connection() throws SQLException {
        if (connection == null) {
            connection = channel.claimConnection();
        }
        return connection;
    }

    /** Whether the transaction can still commit: the bean has not set it rollback-only. */
    boolean active() {
        return registry.getTransactionStatus() == Status.STATUS_ACTIVE;
    }

    /**
     * Ends the transaction: rollback-only when {@code fault} is set, the connection returned,
     * {@code afterDelivery}. Returns null when it committed, else why not.
     */
    Fault end(Fault fault) {
        if (fault != null) {
            markRollbackOnly();
        }
        try {
            if (connection != null) {
                Connection c = connection;
                connection = null;
                channel.release(c);
            }
        } catch (SQLException | RuntimeException e) {
            if (fault == null) {
                fault = Fault.ofAdapter(e);
                markRollbackOnly();
            }
        }
        try {
            endpoint.afterDelivery();
        } catch (ResourceException | RuntimeException e) {
            if (fault == null) {
                fault = Fault.ofTransaction(e); // the commit failed; the synchronization tells how it ended
            }
        }
        if (status == Status.STATUS_COMMITTED) {
            return null;
        }
        return fault != null ? fault : Fault.ofTransaction(null);
    }

    /**
     * What the {@code delivered} messages get after the transaction ended with {@code fault} (null:
     * committed), counted in the consumer bean. A fault of the adapter's, or any while nothing
     * reached the bean, gives them back uncounted and the poller waits a little; so does the bean's
     * during deactivation, which likely broke the delivery itself (counting it could dead-letter a
     * good message that a few redeployments caught in flight). The bean's own outcomes feed the
     * circuit breaker, which, open, has its failures postponed rather than counted; an unrecoverable
     * failure ({@link ExceptionPolicy}) is the message's own and neither feeds nor waits for it.
     */
    Settlement settle(Fault fault, int delivered) {
        if (fault == null) {
            monitor.committed(delivered);
            if (delivered > 0) {
                activation.breaker.succeeded();
            }
            return Settlement.COMMITTED;
        }
        if (delivered == 0 && fault.cause() == null) {
            return Settlement.NOTHING;
        }
        String error = fault.describe();
        monitor.rolledBack(delivered, error);
        if (!fault.bean() || delivered == 0) {
            monitor.failed(error);
            activation.backOff(activation.settings.pollInterval());
            return Settlement.GIVE_BACK;
        }
        if (activation.stopping()) {
            QueueActivation.LOG.fine(() -> "not counting a failed attempt during deactivation: " + error);
            return Settlement.GIVE_BACK;
        }
        if (fault.failure(activation.settings.exceptionPolicy()).unrecoverable()) {
            return Settlement.COUNT_FAILURE; // the message's own fault, not an outage's: dead-lettered now, breaker or not
        }
        return activation.breaker.failed(error) ? Settlement.COUNT_FAILURE : Settlement.POSTPONE;
    }

    private void markRollbackOnly() {
        try {
            registry.setRollbackOnly();
        } catch (IllegalStateException alreadyEnded) {
            // the transaction is gone: nothing of it commits anyway
        }
    }

    @Override
    public void beforeCompletion() {
    }

    @Override
    public void afterCompletion(int status) {
        this.status = status;
    }
}
