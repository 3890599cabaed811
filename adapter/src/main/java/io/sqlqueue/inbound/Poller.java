package io.sqlqueue.inbound;

import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import io.sqlqueue.engine.CompletionJournal;
import io.sqlqueue.engine.QueueTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

/**
 * An activation's long-running work: peeks at the queue and starts deliveries while messages are
 * ready and slots are free; backs off while the queue is empty, while the ready messages are held
 * by other transactions ({@link QueueActivation#readyMessagesHeld()}), or while the database is
 * unreachable (logging once per outage, not once per poll).
 */
final class Poller implements Work {

    private static final long TRIM_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final QueueActivation activation;
    private Connection connection;
    private boolean outage;
    /**
     * How long a poller on a data source its application declares waits after the activation
     * before its first statement, unless a send on this server wakes it sooner (the application is
     * running then): not while the server is still deploying the application. Payara Server creates an
     * application's own data source ({@code @DataSourceDefinition}, web.xml) when it is first
     * looked up, and a lookup during the deployment created its pool anew, closing the connections
     * in use under pollers (each then lost to the pool: RAR7115, RAR8066; 27 in ten redeployments
     * of the sample's three beans, until its pool of 32 ran dry and every delivery and request
     * waited), deadlocking with a poller's H2 session, or leaving the pool unbound for the
     * application's own startup bean ("pool is not bound in JNDI": the deployment failed). A
     * server's own JDBC resource exists before the application: its pollers start at once, and
     * create a missing queue table at activation as before.
     */
    private static final long DEPLOYMENT_GRACE_NANOS = Duration.ofSeconds(5).toNanos();
    /** How long after the activation the housekeeping (journal trim, expiry sweep) first runs. */
    private static final long HOUSEKEEPING_DELAY_NANOS = Duration.ofSeconds(5).toNanos();
    private long lastJournalTrim = System.nanoTime() - TRIM_EVERY_NANOS + HOUSEKEEPING_DELAY_NANOS;
    /** How often the expiry sweep runs at most. */
    static final long SWEEP_EVERY_NANOS = Duration.ofSeconds(30).toNanos();
    private long lastSweep = System.nanoTime() - SWEEP_EVERY_NANOS + HOUSEKEEPING_DELAY_NANOS;
    /**
     * How often a poller whose deliveries are busy reveals the hidden messages whose time has come
     * (an idle one does at every poll that finds nothing ready): a message hidden for a second or
     * more is delivered within about a second of its time.
     */
    static final long REVEAL_EVERY_NANOS = QueueTable.HIDDEN_FROM.toNanos();
    private long lastReveal = System.nanoTime();

    Poller(QueueActivation activation) {
        this.activation = activation;
    }

    @Override
    public void run() {
        if (activation.connections.declaredByApplication()) {
            long graceEnds = System.nanoTime() + DEPLOYMENT_GRACE_NANOS;
            while (!activation.stopping() && System.nanoTime() < graceEnds
                    && !activation.pause(Math.max(1, TimeUnit.NANOSECONDS.toMillis(graceEnds - System.nanoTime())))) {
                // waiting for the deployment to end, or for the application's first send
            }
        }
        long idle = activation.spec.getPollInterval();
        long retry = activation.spec.getPollInterval(); // after a failed poll: soon, then ever more rarely
        boolean held = false; // the poller's back-off because the ready messages are held by others
        try {
            while (!activation.stopping()) {
                if (activation.paused()) {
                    activation.monitor.pausedPoll();
                    activation.pause(activation.spec.getMaxPollInterval()); // resume() wakes us
                    continue;
                }
                long backOff = activation.backOffRemaining();
                if (backOff > 0) {
                    activation.pause(backOff); // the container had no bean instance for a delivery
                    continue;
                }
                if (!activation.tryTakeSlot()) {
                    if (revealIsDue()) {
                        revealDue();
                        giveConnectionBack();
                    }
                    // A finishing delivery wakes us; the poll interval bounds the wait should a wake go astray.
                    activation.pause(activation.spec.getPollInterval());
                    continue;
                }
                long eventsAtPeek = activation.queueEvents();
                boolean ready;
                try {
                    ready = peek();
                } catch (SQLException | RuntimeException e) {
                    activation.deliveryFinishedWithoutStarting();
                    databaseDown(e);
                    // A lone failure (a connection the server closed) costs one poll interval, not the maximum.
                    activation.pause(retry);
                    retry = Math.min(retry * 2, activation.spec.getMaxPollInterval());
                    continue;
                }
                retry = activation.spec.getPollInterval();
                if (!ready || revealIsDue()) {
                    int revealed = revealDue();
                    if (revealed > 0) {
                        activation.queueChanged(); // messages no one holds
                        ready = true;
                    }
                }
                sweepExpired();
                if (!ready) {
                    activation.nothingReady();
                    if (held) {
                        held = false;
                        idle = activation.spec.getPollInterval(); // the held spell was no idle queue
                    }
                    activation.deliveryFinishedWithoutStarting();
                    trimJournal();
                    giveConnectionBack();
                    activation.connections.closeExpired(); // those of the last busy spell
                    activation.pause(idle);
                    idle = Math.min(idle * 2, activation.spec.getMaxPollInterval());
                    continue;
                }
                if (activation.readyMessagesHeld()) {
                    if (!held) {
                        held = true;
                        QueueActivation.LOG.fine(() -> "the messages ready in " + activation.spec.getQueue()
                                + " are held by other transactions; looking again as when idle until a take"
                                + " finds messages");
                    }
                    // One delivery finds out whether they are free again (or others have come), unless one
                    // is still at it; meanwhile, and after it, the poller waits as when idle.
                    if (activation.firstTakesPending() > 0 || !start(eventsAtPeek, idle)) {
                        activation.deliveryFinishedWithoutStarting();
                    }
                    trimJournal();
                    giveConnectionBack();
                    activation.connections.closeExpired();
                    waitWhileHeld(idle);
                    idle = Math.min(idle * 2, activation.spec.getMaxPollInterval());
                    continue;
                }
                held = false;
                idle = activation.spec.getPollInterval();
                giveConnectionBack();
                if (!start(eventsAtPeek, idle)) {
                    activation.deliveryFinishedWithoutStarting();
                    activation.pause(idle);
                }
            }
        } finally {
            closeConnection();
            activation.finished();
        }
    }

    /** Starts a delivery on the slot taken; false (the slot still taken) when the work manager refused it. */
    private boolean start(long eventsAtPeek, long idle) {
        try {
            activation.startDelivery(eventsAtPeek);
            return true;
        } catch (WorkException e) {
            QueueActivation.log(Level.WARNING, "the work manager refused a delivery of "
                    + activation.spec.getQueue() + "; retrying after " + idle + " ms", e);
            return false;
        }
    }

    /**
     * Waits {@code millis} while the ready messages stay held: a take that finds messages, a local
     * send or a reveal ends the wait at once, while the deliveries that end meanwhile (the one
     * started to find out, finding nothing again) do not.
     */
    private void waitWhileHeld(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        long left;
        while (activation.readyMessagesHeld() && !activation.stopping() && !activation.paused()
                && (left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) > 0) {
            activation.pause(left);
        }
    }

    private boolean peek() throws SQLException {
        if (connection == null) {
            connection = activation.connections.plain();
        }
        try {
            boolean ready = activation.openTable(connection).peek(connection);
            activation.monitor.polled(ready);
            activation.outcomes.settleLeftovers();
            if (outage) {
                outage = false;
                QueueActivation.LOG.info(() -> "the database of queue " + activation.spec.getQueue()
                        + " is reachable again; delivering");
            }
            return ready;
        } catch (SQLException | RuntimeException e) {
            closeConnection(); // reconnect next time
            throw e;
        }
    }

    private boolean revealIsDue() {
        return System.nanoTime() - lastReveal >= REVEAL_EVERY_NANOS;
    }

    /**
     * Reveals the hidden messages whose time has come (delayed, backing off, or leased by a
     * delivery that never finished), batch after batch, each in a transaction of its own, and
     * returns how many. A lost lock conflict (H2 waits for held rows; SQL Server may choose the
     * reveal as a deadlock victim) leaves the rest to the next reveal.
     */
    private int revealDue() {
        lastReveal = System.nanoTime();
        int revealed = 0;
        QueueTable table = null;
        try {
            if (connection == null) {
                connection = activation.connections.plain();
            }
            table = activation.openTable(connection);
            for (int n = QueueTable.MAX_CLAIM; n == QueueTable.MAX_CLAIM; revealed += n) {
                n = table.revealDue(connection);
            }
        } catch (SQLException | RuntimeException e) {
            closeConnection(); // the next look connects anew
            if (table != null && e instanceof SQLException s && table.dialect().isLockConflict(s)) {
                QueueActivation.LOG.fine(() -> "revealing the due messages of " + activation.spec.getQueue()
                        + " lost a lock conflict; the next reveal goes on: " + e.getMessage());
            } else {
                databaseDown(e);
            }
        }
        return revealed;
    }

    /**
     * At most every {@link #SWEEP_EVERY_NANOS}: expired messages no claim has come across yet (far
     * back in a backlog, behind their ordering key) leave the queue, in small batches through the
     * index on {@code expires_at}.
     */
    private void sweepExpired() {
        if (System.nanoTime() - lastSweep < SWEEP_EVERY_NANOS || connection == null) {
            return;
        }
        lastSweep = System.nanoTime();
        try {
            int swept = activation.openTable(connection).sweepExpired(connection);
            if (swept > 0) {
                activation.monitor.swept(swept, activation.spec.discardsExpired());
                QueueActivation.LOG.info(() -> swept + " expired messages of " + activation.spec.getQueue() + " were "
                        + (activation.spec.discardsExpired() ? "discarded" : "moved to the dead-letter table"));
            }
        } catch (SQLException e) {
            closeConnection(); // the next peek connects anew
            QueueActivation.log(Level.WARNING, "cannot sweep the expired messages of " + activation.spec.getQueue()
                    + ": " + e.getMessage() + "; trying again later", null);
        }
    }

    /** While idle, at most once a minute: journal rows past their retention go, in small batches. */
    private void trimJournal() {
        CompletionJournal journal = activation.journal();
        if (journal == null || System.nanoTime() - lastJournalTrim < TRIM_EVERY_NANOS || connection == null) {
            return;
        }
        lastJournalTrim = System.nanoTime();
        try {
            int deleted = journal.deleteOlderThan(connection, Duration.ofMillis(activation.spec.getJournalRetention()));
            if (deleted > 0) {
                QueueActivation.LOG.fine(() -> "deleted " + deleted + " journal rows of " + activation.spec.getQueue());
            }
        } catch (SQLException e) {
            closeConnection(); // the next peek connects anew
            QueueActivation.log(Level.WARNING, "cannot trim the completion journal of " + activation.spec.getQueue()
                    + ": " + e.getMessage() + "; trying again in a minute", null);
        }
    }

    private void databaseDown(Exception e) {
        activation.monitor.failed("cannot reach the database: " + e.getMessage());
        if (!outage) {
            outage = true;
            QueueActivation.log(Level.WARNING, "cannot reach the database of queue " + activation.spec.getQueue()
                    + ": " + e.getMessage() + "; retrying, at least every " + activation.spec.getMaxPollInterval()
                    + " ms, until it is back", null);
        }
    }

    /**
     * The connection goes back after each poll. A server pool's, held for the activation's life,
     * was closed under the poller by the server after redeployments (Payara Micro, LifecycleIT);
     * the adapter's own are shared by the activations of one database, so that many idle queues
     * take a few connections, not one each.
     */
    private void giveConnectionBack() {
        closeConnection();
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // already broken
            }
            connection = null;
        }
    }

    /**
     * The work manager wants the poller's thread back (the server is stopping): polling ends. (WildFly
     * also calls it once the poller has returned, which happens only when the activation stops.)
     */
    @Override
    public void release() {
        activation.requestStop();
    }
}
