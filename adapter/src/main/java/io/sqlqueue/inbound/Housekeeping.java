package io.sqlqueue.inbound;

import io.sqlqueue.engine.CompletionJournal;
import io.sqlqueue.engine.QueueTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.logging.Level;

/**
 * An activation's chores besides delivering, each at its own pace, run by its poller between looks
 * at the queue on the poller's connection: revealing the hidden messages whose time has come,
 * sweeping expired messages, trimming the completion journal, closing the connections idle too
 * long. A chore that fails logs why and leaves its work to its next turn. Used by the poller's
 * thread only.
 */
final class Housekeeping {

    /** The poller's connection, as the chores borrow it. */
    interface Link {
        /** The poller's connection, opened if it has none. */
        Connection open() throws SQLException;

        /** The poller's connection if one is open, else null: a chore that need not connect waits a turn. */
        Connection current();

        /** Closes the connection after a failure: the next look connects anew. */
        void drop();

        /** The database could not be reached (logged once per outage). */
        void databaseDown(Exception e);
    }

    /**
     * How often a poller whose deliveries are busy reveals the hidden messages whose time has come
     * (an idle one does at every poll that finds nothing ready): a message hidden for a second or
     * more is delivered within about a second of its time.
     */
    static final long REVEAL_EVERY_NANOS = QueueTable.HIDDEN_FROM.toNanos();
    /** How often the expiry sweep runs at most. */
    static final long SWEEP_EVERY_NANOS = Duration.ofSeconds(30).toNanos();
    private static final long TRIM_EVERY_NANOS = Duration.ofMinutes(1).toNanos();
    /** How long after the activation the journal trim and the expiry sweep first run. */
    private static final long FIRST_DELAY_NANOS = Duration.ofSeconds(5).toNanos();

    private final QueueActivation activation;
    private final DeliveryConnections connections;
    private final ConsumerMonitor monitor;
    private final ActivationSettings settings;
    private final Link link;
    private long lastReveal = System.nanoTime();
    private long lastSweep = System.nanoTime() - SWEEP_EVERY_NANOS + FIRST_DELAY_NANOS;
    private long lastJournalTrim = System.nanoTime() - TRIM_EVERY_NANOS + FIRST_DELAY_NANOS;
    private boolean statisticsLooked;

    Housekeeping(QueueActivation activation, Link link) {
        this.activation = activation;
        this.connections = activation.connections;
        this.monitor = activation.monitor;
        this.settings = activation.settings;
        this.link = link;
    }

    boolean revealIsDue() {
        return System.nanoTime() - lastReveal >= REVEAL_EVERY_NANOS;
    }

    /**
     * Reveals the hidden messages whose time has come (delayed, backing off, or leased by a
     * delivery that never finished), batch after batch, each in a transaction of its own, and
     * returns how many. A lost lock conflict (H2 waits for held rows; SQL Server may choose the
     * reveal as a deadlock victim) leaves the rest to the next reveal.
     */
    int revealDue() {
        lastReveal = System.nanoTime();
        int revealed = 0;
        QueueTable table = null;
        try {
            Connection c = link.open();
            table = activation.open(c);
            for (int n = QueueTable.MAX_CLAIM; n == QueueTable.MAX_CLAIM; revealed += n) {
                n = table.revealDue(c);
            }
        } catch (SQLException | RuntimeException e) {
            link.drop();
            if (table != null && e instanceof SQLException s && table.dialect().isLockConflict(s)) {
                QueueActivation.LOG.fine(() -> "revealing the due messages of " + settings.queue()
                        + " lost a lock conflict; the next reveal goes on: " + e.getMessage());
            } else {
                link.databaseDown(e);
            }
        }
        return revealed;
    }

    /**
     * At most every {@link #SWEEP_EVERY_NANOS}: expired messages no claim has come across yet (far
     * back in a backlog, behind their ordering key) leave the queue, in small batches through the
     * index on {@code expires_at}.
     */
    void sweepExpired() {
        Connection c = link.current();
        if (System.nanoTime() - lastSweep < SWEEP_EVERY_NANOS || c == null) {
            return;
        }
        lastSweep = System.nanoTime();
        try {
            int swept = activation.open(c).sweepExpired(c);
            if (swept > 0) {
                monitor.swept(swept, settings.discardsExpired());
                QueueActivation.LOG.info(() -> swept + " expired messages of " + settings.queue() + " were "
                        + (settings.discardsExpired() ? "discarded" : "moved to the dead-letter table"));
            }
        } catch (SQLException e) {
            link.drop();
            QueueActivation.log(Level.WARNING, "cannot sweep the expired messages of " + settings.queue()
                    + ": " + e.getMessage() + "; trying again later", null);
        }
    }

    /**
     * Once an activation, the first time its poller finds messages ready: gathers the planner's
     * statistics of the queue table where the database has none yet ({@link
     * QueueTable#gatherPlannerStatistics}); without them PostgreSQL reads the whole table for each
     * lease of a backlog. A failure is logged and left to autovacuum.
     */
    void gatherPlannerStatistics() {
        Connection c = link.current();
        if (statisticsLooked || c == null) {
            return;
        }
        statisticsLooked = true;
        try {
            switch (activation.open(c).gatherPlannerStatistics(c)) {
                case GATHERED -> QueueActivation.LOG.info(() -> "gathered the planner's statistics of queue table "
                        + settings.queue() + ", which had none: without them the database reads the whole table"
                        + " for each lease of a backlog");
                case MISSING -> QueueActivation.log(Level.WARNING, "the database has no planner statistics of queue"
                        + " table " + settings.queue() + " and this login may not gather them (only the table's"
                        + " owner may): until autovacuum analyzes it while it holds messages, each lease of a"
                        + " backlog reads the whole table; run ANALYZE on it while it holds messages", null);
                case PRESENT -> { }
            }
        } catch (SQLException e) {
            link.drop();
            QueueActivation.log(Level.WARNING, "cannot look at the planner statistics of queue table "
                    + settings.queue() + ": " + e.getMessage(), null);
        }
    }

    /**
     * While no delivery can start (nothing ready, or all of it held by others): journal rows past
     * their retention go, at most once a minute, in small batches; then the poller's connection goes
     * back, and the connections of the last busy spell that have idled too long are closed.
     */
    void whileIdle() {
        trimJournal();
        link.drop();
        connections.closeExpired();
    }

    private void trimJournal() {
        CompletionJournal journal = activation.journal();
        Connection c = link.current();
        if (journal == null || System.nanoTime() - lastJournalTrim < TRIM_EVERY_NANOS || c == null) {
            return;
        }
        lastJournalTrim = System.nanoTime();
        try {
            int deleted = journal.deleteOlderThan(c, settings.journalRetention());
            if (deleted > 0) {
                QueueActivation.LOG.fine(() -> "deleted " + deleted + " journal rows of " + settings.queue());
            }
        } catch (SQLException e) {
            link.drop();
            QueueActivation.log(Level.WARNING, "cannot trim the completion journal of " + settings.queue()
                    + ": " + e.getMessage() + "; trying again in a minute", null);
        }
    }
}
