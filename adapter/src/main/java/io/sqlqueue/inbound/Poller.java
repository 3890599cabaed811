package io.sqlqueue.inbound;

import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

/**
 * An activation's long-running work: peeks at the queue and starts deliveries while messages are
 * ready and slots are free; backs off while the queue is empty, while the ready messages are held
 * by other transactions ({@link HeldMessages}), or while the database is
 * unreachable (logging once per outage, not once per poll). Between its looks, and waking for them
 * whatever it waits for, it renews the leases of the deliveries in flight to a bean without a
 * transaction ({@link LeaseRenewals}).
 */
final class Poller implements Work {

    private final QueueActivation activation;
    private final DeliveryConnections connections;
    private final ConsumerMonitor monitor;
    private final DeliveryOutcomes outcomes;
    private final ActivationSettings settings;
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
    private final Housekeeping housekeeping;
    private final HeldMessages held;
    private final LeaseRenewals renewals;
    /** The idle wait: the poll interval, doubling to the maximum while the queue stays empty or its messages held. */
    private long idle;
    /** The wait after a failed poll: soon, then ever more rarely. */
    private long retry;
    /** Whether the poller is backing off because the ready messages are held by others. */
    private boolean heldSpell;

    Poller(QueueActivation activation) {
        this.activation = activation;
        this.connections = activation.connections;
        this.monitor = activation.monitor;
        this.outcomes = activation.outcomes;
        this.settings = activation.settings;
        this.held = activation.held;
        this.renewals = activation.renewals;
        this.housekeeping = new Housekeeping(activation, new Housekeeping.Link() {
            @Override
            public Connection open() throws SQLException {
                return connection();
            }

            @Override
            public Connection current() {
                return connection;
            }

            @Override
            public void drop() {
                closeConnection();
            }

            @Override
            public void databaseDown(Exception e) {
                Poller.this.databaseDown(e);
            }
        });
    }

    @Override
    public void run() {
        waitForTheDeployment();
        idle = settings.pollInterval();
        retry = settings.pollInterval();
        try {
            while (!activation.stopping()) {
                turn();
            }
            renewWhileDeliveriesFinish();
        } finally {
            closeConnection();
            activation.finished();
        }
    }

    /** On an application's own data source: no statement until its deployment has ended (see {@link #DEPLOYMENT_GRACE_NANOS}). */
    private void waitForTheDeployment() {
        if (connections.declaredByApplication()) {
            long graceEnds = System.nanoTime() + DEPLOYMENT_GRACE_NANOS;
            while (!activation.stopping() && System.nanoTime() < graceEnds
                    && !activation.pause(Math.max(1, TimeUnit.NANOSECONDS.toMillis(graceEnds - System.nanoTime())))) {
                // waiting for the deployment to end, or for the application's first send
            }
        }
    }

    /**
     * After a stop, the deliveries in flight finish their messages (for as long as the stop waits
     * for them): those to a bean without a transaction keep their leases meanwhile, so that a slow
     * handler caught by an undeployment is not delivered again elsewhere while it runs.
     */
    private void renewWhileDeliveriesFinish() {
        long left;
        while (renewals.any() && (left = activation.stopWaitLeft()) > 0) {
            renewals.renewDue();
            long wait = renewals.nanosToWait(System.nanoTime() + left);
            activation.awaitDeliveries(ceilMillis(wait));
        }
    }

    /**
     * Waits up to {@code millis} as {@link QueueActivation#pause} does, renewing the leases of the
     * deliveries in flight as they fall due meanwhile ({@link LeaseRenewals}): every wait of the
     * poller goes through here, so none outlasts a renewal. Returns whether it was woken.
     */
    private boolean pause(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (true) {
            renewals.renewDue();
            long wait = renewals.nanosToWait(deadline);
            if (deadline - System.nanoTime() <= 0 || activation.stopping()) {
                return false;
            }
            if (activation.pause(ceilMillis(wait))) {
                return true;
            }
        }
    }

    /** Nanoseconds as milliseconds, rounded up: a wait never ends before its time, and never spins at 0. */
    private static long ceilMillis(long nanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999));
    }

    /**
     * One turn: waits while paused, backed off, in the circuit breaker's pause or without a free
     * delivery slot; else looks at the queue.
     */
    private void turn() {
        renewals.renewDue();
        long backOff;
        if (activation.paused()) {
            monitor.pausedPoll();
            pause(settings.maxPollInterval()); // resume() wakes us
        } else if ((backOff = activation.backOffRemaining()) > 0) {
            pause(backOff); // the container had no bean instance for a delivery
        } else if ((backOff = activation.breaker.waitMillis()) > 0) {
            // The circuit breaker's pause between deliveries, a turn at least every maxPollInterval (liveness).
            monitor.circuitPause();
            pause(Math.min(backOff, settings.maxPollInterval()));
        } else if (!activation.tryTakeSlot()) {
            if (housekeeping.revealIsDue()) {
                housekeeping.revealDue();
                giveConnectionBack();
            }
            // A finishing delivery wakes us; the poll interval bounds the wait should a wake go astray.
            pause(settings.pollInterval());
        } else {
            look();
        }
    }

    /**
     * With a delivery slot taken: peeks (revealing and sweeping what is due), then starts a delivery
     * or waits; the slot goes back unless a delivery took it.
     */
    private void look() {
        long eventsAtPeek = held.queueEvents();
        boolean ready;
        try {
            ready = peek();
        } catch (SQLException | RuntimeException e) {
            activation.deliveryFinishedWithoutStarting();
            databaseDown(e);
            // A lone failure (a connection the server closed) costs one poll interval, not the maximum.
            pause(retry);
            retry = Math.min(retry * 2, settings.maxPollInterval());
            return;
        }
        retry = settings.pollInterval();
        if ((!ready || housekeeping.revealIsDue()) && housekeeping.revealDue() > 0) {
            held.queueChanged(); // messages no one holds
            ready = true;
        }
        housekeeping.sweepExpired();
        if (ready) {
            housekeeping.gatherPlannerStatistics();
        }
        if (!ready) {
            held.nothingReady();
            if (heldSpell) {
                heldSpell = false;
                idle = settings.pollInterval(); // the held spell was no idle queue
            }
            activation.deliveryFinishedWithoutStarting();
            housekeeping.whileIdle();
            pause(idle);
            idle = Math.min(idle * 2, settings.maxPollInterval());
        } else if (held.held()) {
            lookWhileHeld(eventsAtPeek);
        } else {
            heldSpell = false;
            idle = settings.pollInterval();
            giveConnectionBack();
            if (!start(eventsAtPeek, idle)) {
                activation.deliveryFinishedWithoutStarting();
                pause(idle);
            }
        }
    }

    /**
     * The ready messages are held by others: one delivery finds out whether they are free again (or
     * others have come), unless one is still at it; meanwhile, and after it, the poller waits as
     * when idle.
     */
    private void lookWhileHeld(long eventsAtPeek) {
        if (!heldSpell) {
            heldSpell = true;
            QueueActivation.LOG.fine(() -> "the messages ready in " + settings.queue() + " are held by other"
                    + " transactions" + (settings.selector() == null ? "" : " or not selected by this bean's"
                    + " messageSelector") + "; looking again as when idle until a take finds messages");
        }
        if (held.firstTakesPending() > 0 || !start(eventsAtPeek, idle)) {
            activation.deliveryFinishedWithoutStarting();
        }
        housekeeping.whileIdle();
        waitWhileHeld(idle);
        idle = Math.min(idle * 2, settings.maxPollInterval());
    }

    /** Starts a delivery on the slot taken; false (the slot still taken) when the work manager refused it. */
    private boolean start(long eventsAtPeek, long idle) {
        try {
            activation.startDelivery(eventsAtPeek);
            return true;
        } catch (WorkException e) {
            QueueActivation.log(Level.WARNING, "the work manager refused a delivery of "
                    + settings.queue() + "; retrying after " + idle + " ms", e);
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
        while (held.held() && !activation.stopping() && !activation.paused()
                && (left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) > 0) {
            pause(left);
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = connections.plain();
        }
        return connection;
    }

    private boolean peek() throws SQLException {
        try {
            boolean ready = activation.open(connection()).peek(connection);
            monitor.polled(ready);
            outcomes.settleLeftovers();
            if (outage) {
                outage = false;
                QueueActivation.LOG.info(() -> "the database of queue " + settings.queue()
                        + " is reachable again; delivering");
            }
            return ready;
        } catch (SQLException | RuntimeException e) {
            closeConnection(); // reconnect next time
            throw e;
        }
    }

    private void databaseDown(Exception e) {
        monitor.databaseUnreachable(e.getMessage());
        if (!outage) {
            outage = true;
            QueueActivation.log(Level.WARNING, "cannot reach the database of queue " + settings.queue()
                    + ": " + e.getMessage() + "; retrying, at least every " + settings.maxPollInterval()
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
