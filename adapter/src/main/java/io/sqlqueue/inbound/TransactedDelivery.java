package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * One delivery inside the bean's transaction, read as one sequence:
 * <ol>
 * <li>{@code beforeDelivery} begins the transaction;
 * <li><b>take</b>: the messages are deleted in that transaction ({@link Take});
 * <li><b>deliver</b>: {@code onMessage} (or {@code onMessages});
 * <li><b>record</b>: the completion journal's rows, in that transaction, and with the default
 * attempt counting the thread's next lease ({@link LeasedTake});
 * <li>{@code afterDelivery} commits, or rolls back if anything above threw or the bean set
 * rollback-only: any throwable marks the transaction rollback-only first, so a delete commits only
 * with a delivery that reached the bean and was recorded;
 * <li><b>settle</b>, by the outcome a transaction synchronization saw: after a rollback the bean
 * caused, the attempt is counted with its back-off (or the message dead-lettered); after one the
 * adapter's own statements caused, or when nothing reached the bean, the messages go back uncounted.
 * </ol>
 */
final class TransactedDelivery implements Synchronization {

    /** The steps inside the transaction; only a failure of the bean's own can be the message's fault. */
    private enum Step { TAKE, DELIVER, RECORD, DONE }

    private final QueueActivation activation;
    private final MessageEndpoint endpoint;
    private final DeliveryConnections.Channel channel;
    private final Take take;
    private final Instant claimedAt = Instant.now();

    private List<QueueMessage> messages = List.of();
    private Step step = Step.TAKE;
    /** Whether the bean ran. */
    private boolean reachedBean;
    /** The step that threw, if one did. */
    private Step failedAt;
    private Throwable failure;
    private volatile int status = Status.STATUS_UNKNOWN;
    /** Borrowed for the take and kept for the record step, so a delivery borrows once; closed before afterDelivery. */
    private Connection connection;

    TransactedDelivery(QueueActivation activation, MessageEndpoint endpoint, DeliveryConnections.Channel channel,
            Take take) {
        this.activation = activation;
        this.endpoint = endpoint;
        this.channel = channel;
        this.take = take;
    }

    /**
     * Runs the delivery; false when this delivery thread should stop: the queue was empty, the
     * container began no transaction, or the adapter's own statements failed (nothing is counted
     * against the messages then, and the poller waits a little).
     */
    boolean run() throws ResourceException, NoSuchMethodException {
        try {
            endpoint.beforeDelivery(activation.method);
        } catch (ResourceException | NoSuchMethodException | RuntimeException e) {
            take.giveBack(); // enlisting a dead connection fails here, before the bean: not the message's fault
            throw e;
        }
        TransactionSynchronizationRegistry registry = activation.adapter.transactionSynchronizationRegistry();
        boolean inTransaction = registry.getTransactionKey() != null;
        try {
            if (inTransaction) {
                registry.registerInterposedSynchronization(this);
                take();
                step = Step.DELIVER;
                deliver();
                step = Step.RECORD;
                if (registry.getTransactionStatus() == Status.STATUS_ACTIVE) {
                    record();
                }
                step = Step.DONE;
            }
        } catch (Throwable t) {
            failure = t;
            failedAt = step;
            markRollbackOnly(registry);
        } finally {
            try {
                releaseConnection();
            } catch (SQLException | RuntimeException e) {
                if (failure == null) { // the adapter's own statement: not the message's fault
                    failure = e;
                    failedAt = Step.RECORD;
                    markRollbackOnly(registry);
                }
            }
            try {
                endpoint.afterDelivery();
            } catch (ResourceException | RuntimeException e) {
                if (failure == null) {
                    failure = e; // the commit failed; the synchronization tells how it ended
                }
            }
        }
        if (!inTransaction) {
            // The container began no transaction for a transacted bean (Payara while it undeploys
            // one): a delete would commit at once and a failing delivery lose its message. Nothing
            // was taken; the messages go back uncounted, and the poller waits a little.
            QueueActivation.LOG.fine(() -> "no transaction for a delivery from " + activation.spec.getQueue()
                    + ": nothing taken");
            take.giveBack();
            activation.backOff(activation.spec.getPollInterval());
            return false;
        }
        return settle();
    }

    private void take() throws SQLException {
        messages = take.take(connection());
    }

    /** The delivery's connection, borrowed after beforeDelivery: enlisted in the bean's transaction. */
    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = channel.claimConnection();
        }
        return connection;
    }

    private void releaseConnection() throws SQLException {
        if (connection != null) {
            Connection c = connection;
            connection = null;
            channel.release(c);
        }
    }

    private void deliver() {
        if (messages.isEmpty()) {
            return;
        }
        long started = activation.monitor.delivering(messages);
        reachedBean = true;
        try {
            Delivery.invoke(activation, endpoint, messages);
        } finally {
            activation.monitor.processed(messages.size(), started);
        }
    }

    /** In the transaction: the completion journal's rows (no row, no commit) and the next lease, if any. */
    private void record() throws SQLException {
        boolean journal = !messages.isEmpty() && activation.journal() != null;
        if (!journal && !take.leasesNext()) {
            return;
        }
        Connection c = connection();
        if (journal) {
            activation.outcomes.journalCompleted(c, messages, claimedAt);
        }
        if (take.leasesNext()) {
            take.leaseNext(c);
        }
    }

    private static void markRollbackOnly(TransactionSynchronizationRegistry registry) {
        try {
            registry.setRollbackOnly();
        } catch (IllegalStateException alreadyEnded) {
            // the transaction is gone: nothing of it commits anyway
        }
    }

    /** After the transaction: counts, back-off, dead letters, or messages given back. False: stop. */
    private boolean settle() {
        if (status == Status.STATUS_COMMITTED) {
            activation.monitor.committed(messages.size());
            take.committed();
            return !take.foundNothing();
        }
        if (messages.isEmpty() && failure == null) {
            return !take.foundNothing(); // nothing to deliver, and nothing failed
        }
        String error = failure == null ? "the transaction rolled back (setRollbackOnly, a timeout or a failed"
                + " commit)" : Delivery.describe(failure);
        activation.monitor.rolledBack(messages.size(), error);
        if (!reachedBean || failedAt == Step.TAKE || failedAt == Step.RECORD) {
            // The adapter's own statements failed (the database, a journal that cannot be written):
            // not the message's fault. Uncounted, and the poller waits a little before trying again.
            activation.monitor.failed(error);
            take.giveBack();
            activation.backOff(activation.spec.getPollInterval());
            return false;
        }
        if (activation.stopping()) {
            // Likely the undeploy itself broke the delivery: counting it could dead-letter a good
            // message that a few redeployments happened to catch in flight.
            QueueActivation.LOG.fine(() -> "not counting a failed attempt during deactivation: " + error);
            take.giveBack();
            return false;
        }
        take.failed(error, claimedAt);
        return true;
    }

    @Override
    public void beforeCompletion() {
    }

    @Override
    public void afterCompletion(int status) {
        this.status = status;
    }
}
