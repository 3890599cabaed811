package io.sqlqueue.inbound;

import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.engine.CompletionJournal;
import io.sqlqueue.engine.Dialect;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.TableName;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.management.PlatformMBeans;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.ObjectName;

/**
 * One message-driven bean's consumption of one queue: a long-running {@link Poller} on the work
 * manager, which starts up to {@code maxConcurrency} {@link Delivery} works while messages are
 * ready. Idle, the poller peeks with a back-off from {@code pollInterval} doubling to
 * {@code maxPollInterval}; a committed local enqueue wakes it at once.
 */
final class QueueActivation {

    static final Logger LOG = Logger.getLogger(QueueActivation.class.getName());

    final QueueResourceAdapter adapter;
    final MessageEndpointFactory factory;
    /** The settings, read from the spec once, at activation. */
    final ActivationSettings settings;
    final DeliveryConnections connections;
    /** The bean's listener interface: which method each delivery calls, and how. */
    final ListenerKind listener;
    final Method method;
    final boolean batch;
    /** How each delivery runs: chosen here once, from the bean's transaction attribute and attemptCounting. */
    final DeliverySequence.Mode mode;

    private final WorkManager workManager;
    private final Semaphore slots;
    private final AtomicInteger running = new AtomicInteger();
    private final Object signal = new Object();
    private boolean woken;
    /** Set when a delivery's lease falls due before the poller's wait ends ({@link LeaseRenewals}); guarded by signal. */
    private boolean renewalDue;
    private volatile boolean stopping;
    /**
     * The System.nanoTime() until which a stop lets the deliveries in flight finish, and the poller
     * renews their leases meanwhile: now (no time) until a stop is requested.
     */
    private volatile long stopDeadline = System.nanoTime();
    /** The engine's queue and journal, published once by the poller ({@link #open}); null until then. */
    private volatile OpenQueue open;
    private volatile boolean paused;
    private volatile long backOffUntil = System.nanoTime();
    /** What the deliveries' takes tell the poller about the ready messages. */
    final HeldMessages held;
    private final EnqueueListener wakeOnEnqueue;
    final ConsumerMonitor monitor;
    final DeliveryOutcomes outcomes;
    /** The leases of the deliveries to a bean without a transaction, renewed by the poller while they run. */
    final LeaseRenewals renewals;
    /** Fed by each delivery's outcome; while open, one delivery at a time after a pause. */
    final CircuitBreaker breaker;
    private ObjectName monitorName;

    QueueActivation(QueueResourceAdapter adapter, WorkManager workManager, MessageEndpointFactory factory,
            QueueActivationSpec spec, DeliveryConnections connections) throws jakarta.resource.ResourceException {
        this.adapter = adapter;
        this.workManager = workManager;
        this.factory = factory;
        this.connections = connections;
        Class<?> bean = factory.getEndpointClass();
        this.listener = ListenerKind.of(bean);
        this.batch = listener.batch();
        this.method = listener.method;
        boolean transacted;
        try {
            transacted = factory.isDeliveryTransacted(method);
        } catch (NoSuchMethodException e) {
            throw new jakarta.resource.ResourceException("the bean has no " + method, e);
        }
        if (transacted && adapter.transactionSynchronizationRegistry() == null) {
            throw new jakarta.resource.NotSupportedException("the server offers the adapter no transaction"
                    + " synchronization registry, which transacted delivery needs to learn how each delivery ended;"
                    + " give the bean bean-managed transactions (or NOT_SUPPORTED) for leased delivery instead");
        }
        this.settings = ActivationSettings.of(spec, batch);
        this.mode = DeliverySequence.Mode.of(transacted,
                QueueActivationSpec.BEFORE_DELIVERY.equals(spec.getAttemptCounting()));
        this.slots = new Semaphore(settings.maxConcurrency());
        this.breaker = new CircuitBreaker(settings.circuitBreakerFailures(), settings.pollInterval(),
                settings.circuitBreakerMaxPause(), "delivery of " + settings.queue() + " to "
                + (bean == null ? "its endpoint" : bean.getName()));
        TableName queue = TableName.parse(settings.queue());
        this.held = new HeldMessages(this::wake);
        this.monitor = new ConsumerMonitor(this); // once every field above is set
        this.outcomes = new DeliveryOutcomes(this);
        this.renewals = new LeaseRenewals(this);
        this.wakeOnEnqueue = q -> {
            if (queue.toString().equals(q)) {
                held.queueChanged();
                wake();
            }
        };
    }

    /** Schedules the poller and returns: no database work here, so activation never waits on it. */
    void start() throws WorkException {
        // The management beans before the poller: its first delivery may already be paused through them.
        Class<?> bean = factory.getEndpointClass();
        monitorName = PlatformMBeans.register(monitor, "Consumer", "database", connections.database(),
                "queue", settings.queue(),
                "name", bean == null ? "endpoint" : bean.getSimpleName());
        QueueMonitor.register(this);
        adapter.addEnqueueListener(wakeOnEnqueue);
        running.incrementAndGet();
        try {
            workManager.scheduleWork(new Poller(this), WorkManager.INDEFINITE, null, null);
        } catch (WorkException e) {
            running.decrementAndGet();
            adapter.removeEnqueueListener(wakeOnEnqueue);
            QueueMonitor.unregister(this);
            PlatformMBeans.unregister(monitorName);
            throw e;
        }
        LOG.info(() -> "activated " + (mode == DeliverySequence.Mode.UNTRANSACTED ? "leased " : "transacted ")
                + (batch ? "batch " : listener == ListenerKind.JMS ? "JMS " : "") + "delivery to " + factory.getEndpointClass() + ": " + settings.description());
    }

    /**
     * Stops polling, lets in-flight deliveries finish their message (bounded by {@code wait}), and
     * returns; a delivery still running after that is told to stop and rolls back.
     */
    void stop(Duration wait) {
        requestStop(wait);
        adapter.removeEnqueueListener(wakeOnEnqueue);
        PlatformMBeans.unregister(monitorName);
        QueueMonitor.unregister(this);
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (signal) {
            while (running.get() > 0 && System.nanoTime() < deadline) {
                try {
                    signal.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        connections.close(); // a delivery still running closes its connection when it ends
        if (running.get() > 0) {
            LOG.warning(() -> running.get() + " deliveries of " + settings.queue() + " were still running after "
                    + wait + " at deactivation");
        } else {
            LOG.info(() -> "deactivated delivery of " + settings.queue());
        }
    }

    /**
     * From {@code Work.release()}: only sets the flag and wakes waits. The deliveries in flight get
     * a deactivation's wait to finish.
     */
    void requestStop() {
        requestStop(Activations.DEACTIVATION_WAIT);
    }

    private void requestStop(Duration wait) {
        synchronized (signal) {
            if (!stopping) {
                stopDeadline = System.nanoTime() + wait.toNanos();
            }
        }
        stopping = true;
        wake();
    }

    boolean stopping() {
        return stopping;
    }

    /** Nanoseconds left of the time a stop gives the deliveries in flight to finish; 0 or less when none. */
    long stopWaitLeft() {
        return stopping ? stopDeadline - System.nanoTime() : 0;
    }

    /** Paused through JMX: the poller starts no delivery and deliveries end after their message. */
    boolean paused() {
        return paused;
    }

    void setPaused(boolean paused) {
        boolean changed = this.paused != paused;
        this.paused = paused;
        if (changed) {
            LOG.info(() -> (paused ? "paused" : "resumed") + " delivery of " + settings.queue() + " to "
                    + factory.getEndpointClass());
            wake();
        }
    }

    void wake() {
        synchronized (signal) {
            woken = true;
            signal.notifyAll();
        }
    }

    /**
     * Asks the poller to start no delivery for {@code millis}. Deliveries never wait on the
     * poller's signal themselves: a wait there would swallow a wake-up meant for the poller.
     */
    void backOff(long millis) {
        backOffUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** Milliseconds of back-off left; 0 when none. */
    long backOffRemaining() {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(backOffUntil - System.nanoTime()));
    }

    /** A delivery's lease falls due before the poller's wait ends: it wakes to renew it, its other waits unchanged. */
    void wakeForRenewal() {
        synchronized (signal) {
            renewalDue = true;
            signal.notifyAll();
        }
    }

    /**
     * Waits up to {@code millis} or until woken (a slot freed, an enqueue, a stop), or a lease falls
     * due sooner ({@link #wakeForRenewal}). Only the poller waits here. Returns whether it was woken
     * (not counting a renewal).
     */
    boolean pause(long millis) {
        synchronized (signal) {
            long deadline = System.currentTimeMillis() + millis;
            while (!woken && !stopping && !renewalDue) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    break;
                }
                try {
                    signal.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopping = true;
                }
            }
            boolean wasWoken = woken;
            woken = false;
            renewalDue = false;
            return wasWoken;
        }
    }

    /**
     * After a stop: the poller waits up to {@code millis} for a delivery to end or a lease to fall
     * due ({@link Poller}, renewing the leases of the deliveries still in flight).
     */
    void awaitDeliveries(long millis) {
        synchronized (signal) {
            if (!woken && !renewalDue) {
                try {
                    signal.wait(Math.max(1, millis));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopDeadline = System.nanoTime(); // interrupted: no more waiting
                }
            }
            woken = false;
            renewalDue = false;
        }
    }

    /** The queue as the engine opened it: its table (in this activation's order) and journal (null: off). */
    private record OpenQueue(QueueTable table, CompletionJournal journal) {
    }

    /**
     * Opens the engine's queue once the database has been reached (the engine needs its dialect):
     * creates the tables when {@code createQueue} says so (else checks those a DBA made), subscribes
     * to the topic, and publishes the queue to the deliveries, the outcomes and the management
     * beans. Called on the poller's thread only, so nothing is created twice; later calls return
     * the open queue and touch nothing.
     */
    QueueTable open(Connection c) throws SQLException {
        OpenQueue o = open;
        if (o != null) {
            return o.table();
        }
        QueueTable t = new QueueTable(Dialect.of(c), settings.queue(), settings.deadLetterQueue(),
                settings.retryPolicy());
        CompletionJournal j = settings.journal() ? new CompletionJournal(t) : null;
        if (settings.createQueue()) {
            t.createIfMissing(c);
            if (j != null) {
                j.createIfMissing(c);
            }
        } else {
            t.checkExisting(c); // tables a DBA made: refused here if the database cannot use them
        }
        ActivationSettings.Subscription subscription = settings.subscription();
        if (subscription != null) { // after its queue exists: a publish from now on writes into it
            Topic topic = new Topic(t.dialect(), subscription.topic());
            if (settings.createQueue()) {
                topic.createIfMissing(c);
            }
            topic.subscribe(c, subscription.name(), subscription.filter());
        }
        t = settings.ordered() ? t.inKeyOrder() : t;
        t = settings.discardsExpired() ? t.discardingExpired() : t;
        t = settings.selector() == null ? t : t.selecting(settings.selector());
        open = new OpenQueue(t, j);
        return t;
    }

    /** Whether the poller has opened the queue ({@link #open}). */
    boolean isOpen() {
        return open != null;
    }

    /**
     * The engine's queue, which the poller opened before it started any delivery.
     *
     * @throws IllegalStateException before the poller has reached the database
     */
    QueueTable table() {
        OpenQueue o = open;
        if (o == null) {
            throw new IllegalStateException("queue " + settings.queue() + " is not open yet: its poller has not"
                    + " reached the database");
        }
        return o.table();
    }

    /** The completion journal, or null when it is off or the queue is not open yet. */
    CompletionJournal journal() {
        OpenQueue o = open;
        return o == null ? null : o.journal();
    }

    /**
     * Takes a delivery slot if one is free; while the circuit breaker is open, only when no delivery
     * runs: one at a time. (Only the poller takes slots, so none is taken between the look and the take.)
     */
    boolean tryTakeSlot() {
        if (breaker.isOpen() && slots.availablePermits() < settings.maxConcurrency()) {
            return false;
        }
        return slots.tryAcquire();
    }

    /** Starts a delivery for the messages a peek saw ready when the queue events were at {@code eventsAtPeek}. */
    void startDelivery(long eventsAtPeek) throws WorkException {
        running.incrementAndGet();
        held.firstTakeStarting();
        try {
            workManager.scheduleWork(new Delivery(this, eventsAtPeek));
        } catch (WorkException e) {
            held.firstTakeEnded(false, eventsAtPeek);
            finished();
            throw e;
        }
    }

    /** A slot taken for a delivery that did not start. */
    void deliveryFinishedWithoutStarting() {
        slots.release();
    }

    /** A delivery work ended: free its slot and let the poller look again. */
    void deliveryFinished() {
        slots.release();
        finished();
    }

    /** A work (poller or delivery) ended. */
    void finished() {
        running.decrementAndGet();
        synchronized (signal) {
            woken = true;
            signal.notifyAll();
        }
    }

    static void log(Level level, String message, Throwable t) {
        LOG.log(level, message, t);
    }
}
