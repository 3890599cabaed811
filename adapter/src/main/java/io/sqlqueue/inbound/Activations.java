package io.sqlqueue.inbound;

import io.sqlqueue.DatabaseLogin;
import io.sqlqueue.QueueResourceAdapter;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;

/**
 * The inbound half of the resource adapter: the message-driven beans' activations, the adapter's
 * own connections they share per database and login, and the XA connections lent to the server for
 * its recovery. One per {@link QueueResourceAdapter}; thread-safe.
 */
public final class Activations {

    private static final Logger LOG = Logger.getLogger(Activations.class.getName());

    /** How long deactivation waits for deliveries in flight (servers allow about 30 s in all). */
    static final Duration DEACTIVATION_WAIT = Duration.ofSeconds(20);

    private final QueueResourceAdapter adapter;
    private final Map<Key, QueueActivation> activations = new ConcurrentHashMap<>();
    /** The XA connections lent to the server for recovery, each with its own idle connections; closed at stop. */
    private final List<AutoCloseable> recoveryConnections = new CopyOnWriteArrayList<>();
    /** The adapter's own connections, per database and login, while an activation uses them. */
    private final Map<DatabaseLogin, ConnectionPool> pools = new HashMap<>();

    /** An activation's identity: the endpoint factory and the spec (which keeps identity equality). */
    private record Key(MessageEndpointFactory factory, ActivationSpec spec) {
    }

    /** @param adapter whose connection defaults, transaction registry and enqueue wake-ups the activations use */
    public Activations(QueueResourceAdapter adapter) {
        this.adapter = adapter;
    }

    QueueResourceAdapter adapter() {
        return adapter;
    }

    /**
     * Validates the bean's activation properties and schedules its poller on {@code workManager};
     * returns at once, even when the database is down (the poller waits for it).
     */
    public void activate(MessageEndpointFactory factory, ActivationSpec spec, WorkManager workManager)
            throws ResourceException {
        if (!(spec instanceof QueueActivationSpec queueSpec)) {
            throw new NotSupportedException("expected a " + QueueActivationSpec.class.getName() + ", got " + spec);
        }
        queueSpec.validate();
        DeliveryConnections connections = DeliveryConnections.of(queueSpec, this);
        QueueActivation activation;
        try {
            activation = new QueueActivation(adapter, workManager, factory, queueSpec, connections);
        } catch (ResourceException | RuntimeException e) {
            connections.close(); // its share of the adapter's connections
            throw e;
        }
        activations.put(new Key(factory, queueSpec), activation);
        try {
            activation.start();
        } catch (ResourceException e) {
            activations.remove(new Key(factory, queueSpec));
            connections.close();
            throw e;
        }
    }

    /** Stops the poller and waits (bounded) for deliveries in flight; leaves no work behind. */
    public void deactivate(MessageEndpointFactory factory, ActivationSpec spec) {
        QueueActivation activation = activations.remove(new Key(factory, spec));
        if (activation != null) {
            activation.stop(DEACTIVATION_WAIT);
        }
    }

    /**
     * XAResources for the server's recovery of in-doubt dequeues: one per activation that claims
     * through its own XA connections. (A server JDBC resource is recovered by the server itself.)
     */
    public XAResource[] recoveryResources(ActivationSpec[] specs) throws ResourceException {
        List<XAResource> resources = new ArrayList<>();
        for (ActivationSpec spec : specs) {
            if (spec instanceof QueueActivationSpec q && q.getDataSourceJndiName().isEmpty()
                    && !Boolean.FALSE.equals(q.getUseXA())) {
                try {
                    DeliveryConnections connections = DeliveryConnections.of(q, this);
                    DeliveryConnections.Channel channel = connections.channel();
                    recoveryConnections.add(() -> {
                        channel.close();
                        connections.close();
                    });
                    resources.add(channel.xaResource());
                } catch (java.sql.SQLException e) {
                    throw new ResourceException("cannot open a recovery connection for queue " + q.getQueue() + ": "
                            + e.getMessage(), e);
                }
            }
        }
        return resources.toArray(XAResource[]::new);
    }

    /** Stops every activation (all asked first, then each awaited), closes the recovery and own connections. */
    public void stop() {
        for (QueueActivation a : activations.values()) {
            a.requestStop();
        }
        for (QueueActivation a : activations.values()) {
            a.stop(DEACTIVATION_WAIT);
        }
        activations.clear();
        for (AutoCloseable recovery : recoveryConnections) {
            try {
                recovery.close();
            } catch (Exception e) {
                LOG.log(Level.FINE, "closing a recovery connection failed", e);
            }
        }
        recoveryConnections.clear(); // (the stopped activations took their enqueue listeners away)
        synchronized (pools) { // none left unless an activation failed to give them back
            pools.values().forEach(ConnectionPool::close);
            pools.clear();
        }
    }

    /**
     * The own connections to this database and login, shared with the other activations that use
     * them, with room for an activation of {@code maxConcurrency} deliveries; give them back with
     * {@link #releaseConnectionPool}.
     *
     * @throws IllegalArgumentException when the URL names no supported database
     */
    ConnectionPool connectionPool(DatabaseLogin login, int maxConcurrency) {
        synchronized (pools) {
            ConnectionPool own = pools.computeIfAbsent(login, ConnectionPool::new);
            own.users++;
            own.resize(maxConcurrency, +1);
            return own;
        }
    }

    /** An activation of {@code maxConcurrency} deliveries stopped using {@code own}; the last one closes them. */
    void releaseConnectionPool(ConnectionPool own, int maxConcurrency) {
        synchronized (pools) {
            own.resize(maxConcurrency, -1);
            if (--own.users == 0) {
                pools.values().remove(own);
                own.close();
            }
        }
    }
}
