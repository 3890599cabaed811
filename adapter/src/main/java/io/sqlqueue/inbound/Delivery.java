package io.sqlqueue.inbound;

import io.sqlqueue.api.BatchQueueListener;
import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.CompletionJournal;
import io.sqlqueue.engine.FailureOutcome;
import io.sqlqueue.engine.JournalEntry;
import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.QueueTable;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.work.Work;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;

/**
 * One delivery thread: takes an endpoint and delivers message after message (one
 * {@code beforeDelivery}/{@code afterDelivery} pair each, all on this thread) until the queue is
 * empty or the activation stops.
 *
 * <p>Transacted: the claim runs after {@code beforeDelivery}, inside the bean's transaction, so
 * the container's commit consumes the message and its rollback returns it. The outcome is read
 * from a transaction synchronization, never guessed from exceptions; after a rollback the failure
 * is recorded in a short transaction of its own. Not transacted: the message is leased first, then
 * acknowledged when {@code onMessage} returns or given back when it throws.
 */
final class Delivery implements Work {

    /** pid@host, as the JVM names itself. */
    private static final String PROCESS = ManagementFactory.getRuntimeMXBean().getName();

    private final QueueActivation activation;
    /** Set by {@link #release()}: this delivery ends after its current message. */
    private volatile boolean released;

    Delivery(QueueActivation activation) {
        this.activation = activation;
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
                while (!released && !activation.stopping() && !activation.paused()) {
                    int delivered = activation.transacted ? deliverTransacted(endpoint, channel)
                            : deliverLeased(endpoint, channel);
                    if (delivered == 0) {
                        break;
                    }
                }
            } finally {
                endpoint.release();
            }
        } catch (SQLException | ResourceException | NoSuchMethodException | RuntimeException e) {
            activation.monitor.failed(describe(e));
            QueueActivation.log(Level.WARNING, "delivery from " + activation.spec.getQueue() + " stopped: "
                    + e.getMessage(), e);
        } finally {
            activation.deliveryFinished();
        }
    }

    private int deliverTransacted(MessageEndpoint endpoint, DeliveryConnections.Channel channel)
            throws ResourceException, SQLException, NoSuchMethodException {
        Outcome outcome = new Outcome();
        List<QueueMessage> claimed = List.of();
        Throwable failure = null;
        boolean givenBack = false;
        Instant claimedAt = null;
        endpoint.beforeDelivery(activation.method);
        TransactionSynchronizationRegistry registry = activation.adapter.transactionSynchronizationRegistry();
        try {
            boolean inTransaction = registry != null && registry.getTransactionKey() != null;
            if (registry != null && !inTransaction) {
                // The container began no transaction for a transacted bean (Payara while it was
                // undeploying one): a claim would commit at once, and a failing delivery would
                // lose its message. Claim nothing and look again later.
                QueueActivation.LOG.fine(() -> "no transaction for a delivery from " + activation.spec.getQueue()
                        + ": nothing claimed");
                activation.backOff(activation.spec.getPollInterval());
                return 0;
            }
            if (inTransaction) {
                registry.registerInterposedSynchronization(outcome);
            }
            Connection c = channel.claimConnection();
            try {
                claimed = activation.table(c).claim(c, activation.claimSize);
            } finally {
                channel.release(c);
            }
            claimedAt = Instant.now();
            if (inTransaction && activation.failuresBeingRecorded(claimed)) {
                // Another delivery's rollback has just returned it, and that delivery has not yet
                // counted the attempt: the bean would see it once more than maxAttempts allows.
                givenBack = true;
                registry.setRollbackOnly();
            } else if (!claimed.isEmpty()) {
                long started = activation.monitor.delivering(claimed);
                try {
                    invoke(endpoint, claimed);
                } catch (Throwable t) {
                    failure = t;
                    if (inTransaction) {
                        registry.setRollbackOnly();
                    }
                } finally {
                    activation.monitor.processed(claimed.size(), started);
                }
                if (failure == null && inTransaction && registry.getTransactionStatus() == Status.STATUS_ACTIVE) {
                    try {
                        journal(channel, claimed, claimedAt);
                    } catch (SQLException e) {
                        failure = e; // no journal row, no commit: the message comes again
                        registry.setRollbackOnly();
                    }
                }
                if (failure != null || (inTransaction && registry.getTransactionStatus() == Status.STATUS_MARKED_ROLLBACK)) {
                    activation.recordingFailures(claimed); // before the rollback makes them visible again
                }
            }
            if (!inTransaction) {
                outcome.afterCompletion(failure == null ? Status.STATUS_COMMITTED : Status.STATUS_ROLLEDBACK);
            }
        } finally {
            endpoint.afterDelivery();
        }
        if (givenBack) {
            LockSupport.parkNanos(1_000_000); // the other delivery needs a moment to count the attempt
        } else if (!claimed.isEmpty()) {
            try {
                if (outcome.committed()) {
                    activation.monitor.committed(claimed.size());
                } else {
                    String error = failure == null ? "the transaction rolled back (setRollbackOnly, a timeout or"
                            + " a failed commit)" : describe(failure);
                    activation.monitor.rolledBack(claimed.size(), error);
                    if (activation.stopping()) {
                        // Likely the undeploy itself broke the delivery: the rollback returned the
                        // message untouched, and counting the attempt could dead-letter a good message
                        // that a few redeployments happened to catch in flight.
                        QueueActivation.LOG.fine(() -> "not counting a failed attempt during deactivation: " + error);
                    } else {
                        recordFailures(claimed, error, claimedAt);
                    }
                }
            } finally {
                activation.failuresRecorded(claimed);
            }
        }
        return claimed.size();
    }

    private int deliverLeased(MessageEndpoint endpoint, DeliveryConnections.Channel channel)
            throws ResourceException, SQLException, NoSuchMethodException {
        QueueTable table;
        List<LeasedMessage> leased;
        Connection c = channel.claimConnection();
        try {
            table = activation.table(c);
            leased = table.lease(c, activation.claimSize, Duration.ofMillis(activation.spec.getLeaseTime()));
        } finally {
            channel.release(c);
        }
        if (leased.isEmpty()) {
            return 0;
        }
        Instant claimedAt = Instant.now();
        List<QueueMessage> messages = new ArrayList<>(leased.size());
        leased.forEach(l -> messages.add(l.message()));
        Throwable failure = null;
        long started = activation.monitor.delivering(messages);
        endpoint.beforeDelivery(activation.method);
        try {
            invoke(endpoint, messages);
        } catch (Throwable t) {
            failure = t;
        } finally {
            endpoint.afterDelivery();
            activation.monitor.processed(messages.size(), started);
        }
        if (failure == null) {
            activation.monitor.committed(messages.size());
        } else {
            activation.monitor.rolledBack(messages.size(), describe(failure));
        }
        c = channel.claimConnection();
        try {
            for (LeasedMessage m : leased) {
                if (failure == null) {
                    if (table.ack(c, m)) {
                        journal(c, m.message(), JournalEntry.Outcome.COMPLETED, claimedAt);
                    } else {
                        QueueActivation.LOG.warning(() -> "message " + m.message().id() + " of " + activation.spec
                                .getQueue() + " was processed after its lease ran out: another consumer may repeat"
                                + " it (raise leaseTime)");
                    }
                } else {
                    report(c, m.message(), table.nack(c, m, describe(failure)), describe(failure), claimedAt);
                }
            }
        } finally {
            channel.release(c);
        }
        return leased.size();
    }

    private void invoke(MessageEndpoint endpoint, List<QueueMessage> messages) {
        if (activation.batch) {
            ((BatchQueueListener) endpoint).onMessages(messages);
        } else {
            ((QueueListener) endpoint).onMessage(messages.get(0));
        }
    }

    /** After a rollback: count the attempt, back off, dead-letter, in a transaction of its own. */
    private void recordFailures(List<QueueMessage> claimed, String error, Instant claimedAt) throws SQLException {
        try (Connection c = activation.connections.plain()) {
            QueueTable table = activation.table(c);
            for (QueueMessage m : claimed) {
                report(c, m, table.recordFailure(c, m, error), error, claimedAt);
            }
        }
    }

    /** The completion journal's rows for messages whose delivery is about to commit, in its transaction. */
    private void journal(DeliveryConnections.Channel channel, List<QueueMessage> messages, Instant claimedAt)
            throws SQLException {
        CompletionJournal journal = activation.journal();
        if (journal == null) {
            return;
        }
        Instant now = Instant.now();
        List<JournalEntry> entries = new ArrayList<>(messages.size());
        for (QueueMessage m : messages) {
            entries.add(JournalEntry.of(m, JournalEntry.Outcome.COMPLETED, claimedAt, now, consumer()));
        }
        Connection c = channel.claimConnection();
        try {
            journal.recordAll(c, entries);
        } finally {
            channel.release(c);
        }
    }

    /** One journal row, on a connection outside the delivery (leased, dead-lettered). */
    private void journal(Connection c, QueueMessage m, JournalEntry.Outcome outcome, Instant claimedAt)
            throws SQLException {
        CompletionJournal journal = activation.journal();
        if (journal != null) {
            journal.record(c, JournalEntry.of(m, outcome, claimedAt, Instant.now(), consumer()));
        }
    }

    /** The server process and the delivery thread, for the journal's consumer column. */
    private static String consumer() {
        return PROCESS + " " + Thread.currentThread().getName();
    }

    private void report(Connection c, QueueMessage m, FailureOutcome outcome, String error, Instant claimedAt)
            throws SQLException {
        if (outcome == FailureOutcome.DEAD_LETTERED) {
            journal(c, m, JournalEntry.Outcome.DEAD_LETTERED, claimedAt);
            activation.monitor.deadLettered();
            QueueActivation.LOG.warning(() -> "message " + m.id() + " of " + m.queue() + " moved to the dead-letter"
                    + " table after " + m.attempt() + " attempts: " + error);
        } else {
            QueueActivation.LOG.fine(() -> "message " + m.id() + " of " + m.queue() + " failed (attempt "
                    + m.attempt() + "): " + error + " -> " + outcome);
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

    /** Learns how the delivery transaction ended. */
    private static final class Outcome implements Synchronization {
        private volatile int status = Status.STATUS_UNKNOWN;

        @Override
        public void beforeCompletion() {
        }

        @Override
        public void afterCompletion(int status) {
            this.status = status;
        }

        boolean committed() {
            return status == Status.STATUS_COMMITTED;
        }
    }
}
