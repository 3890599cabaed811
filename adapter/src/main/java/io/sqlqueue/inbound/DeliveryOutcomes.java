package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.CompletionJournal;
import io.sqlqueue.engine.DeliveryFailure;
import io.sqlqueue.engine.FailureOutcome;
import io.sqlqueue.engine.JournalEntry;
import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.UndeliverableMessage;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Level;

/**
 * Writes down how an activation's deliveries ended, each in a short transaction of its own after
 * the delivery (except {@link #journalCompleted}, which joins it): acknowledged, failed (back-off
 * or dead letters), given back uncounted (at once, or postponed while the circuit breaker is open),
 * or dead-lettered by the lease. None of these lose a message when the database is unreachable:
 * they are tried again when it answers, and should the server stop first, the lease runs out and
 * the message comes back.
 */
final class DeliveryOutcomes {

    /** pid@host, as the JVM names itself. */
    private static final String PROCESS = ManagementFactory.getRuntimeMXBean().getName();

    private final QueueActivation activation;
    private final DeliveryConnections connections;
    private final ConsumerMonitor monitor;
    private final ActivationSettings settings;

    DeliveryOutcomes(QueueActivation activation) {
        this.activation = activation;
        this.connections = activation.connections;
        this.monitor = activation.monitor;
        this.settings = activation.settings;
    }

    /** Completed deliveries of a bean without a transaction: deleted, with their journal rows. */
    void acknowledge(List<LeasedMessage> leased, Instant claimedAt) {
        inOwnTransaction("acknowledge", (c, table) -> {
            for (LeasedMessage m : leased) {
                if (table.ack(c, m)) {
                    journal(c, m.message(), JournalEntry.Outcome.COMPLETED, claimedAt);
                } else { // no renewal found it taken over before: said once, here
                    activation.renewals.reportTakenOver(m, "before its acknowledgement");
                }
            }
        });
    }

    /**
     * Failed deliveries (the attempt is counted already): back-off, or the dead-letter table after the
     * last or when the failure is unrecoverable.
     */
    void failed(List<LeasedMessage> leased, DeliveryFailure failure, Instant claimedAt) {
        inOwnTransaction("record the failure of", (c, table) -> {
            for (LeasedMessage m : leased) {
                report(c, m.message(), table.nack(c, m, failure), failure.error(), claimedAt);
            }
        });
    }

    private void report(Connection c, QueueMessage message, FailureOutcome outcome, String error, Instant claimedAt)
            throws SQLException {
        if (outcome == FailureOutcome.DEAD_LETTERED) {
            journal(c, message, JournalEntry.Outcome.DEAD_LETTERED, claimedAt);
            monitor.deadLettered();
            QueueActivation.LOG.warning(() -> "message " + message.id() + " of " + message.queue()
                    + " moved to the dead-letter table after " + message.attempt() + " attempts: " + error);
        } else {
            QueueActivation.LOG.fine(() -> "message " + message.id() + " of " + message.queue()
                    + " failed (attempt " + message.attempt() + "): " + error + " -> " + outcome);
        }
    }

    /**
     * Failed deliveries while the circuit breaker is open: their attempt not counted (as when given
     * back), hidden for its {@link CircuitBreaker#postponement()} so that the next delivery takes others.
     */
    void postpone(List<LeasedMessage> leased, String error) {
        Duration delay = activation.breaker.postponement();
        inOwnTransaction("postpone", (c, table) -> {
            for (LeasedMessage m : leased) {
                table.postpone(c, m, delay, error);
            }
        });
    }

    /** As {@link #postpone}, for claimed deliveries after their rollback (attemptCounting=afterRollback). */
    void postponeClaimed(List<QueueMessage> claimed, String error) {
        Duration delay = activation.breaker.postponement();
        inOwnTransaction("postpone", (c, table) -> {
            for (QueueMessage m : claimed) {
                table.postpone(c, m, delay, error);
            }
        });
    }

    /** Messages that never reached the bean: visible again at once, their attempt not counted. */
    void giveBack(List<LeasedMessage> leased) {
        inOwnTransaction("give back", (c, table) -> {
            for (LeasedMessage m : leased) {
                table.release(c, m);
            }
        });
    }

    /**
     * The journal row of a row moved to the dead-letter table instead of being delivered, on
     * {@code c}; none for an expired message that was discarded.
     */
    void journalDeadLettered(Connection c, UndeliverableMessage m) throws SQLException {
        CompletionJournal journal = activation.journal();
        if (journal != null && !discarded(m)) {
            journal.record(c, new JournalEntry(m.id(), m.enqueuedAt(), Instant.now(), Instant.now(), m.attempt(),
                    JournalEntry.Outcome.DEAD_LETTERED, consumer()));
        }
    }

    private boolean discarded(UndeliverableMessage m) {
        return QueueTable.EXPIRED.equals(m.reason()) && settings.discardsExpired();
    }

    /** Counts and logs, once, a row moved to the dead-letter table (or an expired one discarded) instead of being delivered. */
    void countDeadLettered(UndeliverableMessage m) {
        if (QueueTable.EXPIRED.equals(m.reason())) {
            monitor.expired(1);
        }
        if (discarded(m)) {
            QueueActivation.LOG.fine(() -> "message " + m.id() + " of " + settings.queue()
                    + " expired and was discarded");
            return;
        }
        monitor.deadLettered();
        monitor.failed(m.reason());
        // an expired message is an expected outcome, not a fault
        QueueActivation.LOG.log(QueueTable.EXPIRED.equals(m.reason()) ? java.util.logging.Level.INFO
                : java.util.logging.Level.WARNING, () -> "message " + m.id() + " of " + settings.queue()
                + " moved to the dead-letter table: " + m.reason());
    }

    /** Failed claimed deliveries, after their rollback: the attempt counted, back-off or dead letters. */
    void recordFailures(List<QueueMessage> claimed, DeliveryFailure failure, Instant claimedAt) {
        inOwnTransaction("record the failure of", (c, table) -> {
            for (QueueMessage m : claimed) {
                report(c, m, table.recordFailure(c, m, failure), failure.error(), claimedAt);
            }
        });
    }

    /** The journal's rows for messages whose delivery is about to commit, in its transaction. */
    void journalCompleted(Connection c, List<QueueMessage> messages, Instant claimedAt) throws SQLException {
        CompletionJournal journal = activation.journal();
        if (journal == null) {
            return;
        }
        Instant now = Instant.now();
        List<JournalEntry> entries = new ArrayList<>(messages.size());
        for (QueueMessage m : messages) {
            entries.add(JournalEntry.of(m, JournalEntry.Outcome.COMPLETED, claimedAt, now, consumer()));
        }
        journal.recordAll(c, entries);
    }

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

    /**
     * Runs {@code work} on a connection outside any JTA transaction: in auto-commit, or with a
     * journal as one local transaction, so that a move to the dead-letter table and its journal row
     * commit together. A failure (the database is away, or a lost lock wait inside that transaction)
     * is not thrown: the work is kept and tried again by {@link #settleLeftovers} once the poller
     * reaches the database, so the messages need not wait for their lease to run out; should this
     * server stop first, the leases run out and the messages come back all the same.
     */
    private void inOwnTransaction(String what, Work work) {
        try (Connection c = connections.plain()) {
            if (activation.journal() == null) {
                work.run(c, activation.table()); // auto-commit: each statement retries a lost lock wait itself
            } else {
                inTransaction(c, () -> { // a dead-letter move and its journal row, together
                    work.run(c, activation.table());
                    return null;
                });
            }
        } catch (SQLException | RuntimeException e) {
            monitor.failed(Delivery.describe(e));
            if (leftovers.size() >= MAX_LEFTOVERS) {
                leftovers.poll(); // the oldest: its leases have likely run out already
            }
            leftovers.add(work);
            QueueActivation.log(Level.INFO, "cannot " + what + " messages of " + settings.queue() + " now ("
                    + e.getMessage() + "); trying again when the database answers", null);
        }
    }

    /** Outcomes that could not be written down, in order; each is fenced by its lease, so repeating one is harmless. */
    private final Queue<Work> leftovers = new ConcurrentLinkedQueue<>();
    private static final int MAX_LEFTOVERS = 10_000;

    /** Called by the poller when the database answers: writes down what an outage kept back. */
    void settleLeftovers() {
        if (leftovers.isEmpty()) {
            return;
        }
        try (Connection c = connections.plain()) {
            QueueTable table = activation.table();
            for (Work w; (w = leftovers.peek()) != null; leftovers.poll()) {
                w.run(c, table);
            }
        } catch (SQLException | RuntimeException e) {
            monitor.failed(Delivery.describe(e)); // still away: the next poll tries again
        }
    }

    @FunctionalInterface
    private interface Work {
        void run(Connection c, QueueTable table) throws SQLException;
    }

    /** JDBC work that returns a value. */
    interface Call<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work} as one local transaction on {@code c}, a connection outside any JTA
     * transaction, so that a move to the dead-letter table commits with its journal row, or neither
     * does; then gives the connection its auto-commit mode back. A failure rolls back and is thrown.
     * (The engine's statements then do not retry a lost lock wait themselves: the caller's own retry,
     * a later poll or the outcome tried again, does.)
     */
    static <T> T inTransaction(Connection c, Call<T> work) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        if (autoCommit) {
            c.setAutoCommit(false);
        }
        try {
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            if (autoCommit) {
                c.setAutoCommit(true);
            }
        }
    }
}
