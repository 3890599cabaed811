package io.sqlqueue.inbound;

import io.sqlqueue.engine.DriverDataSources;
import io.sqlqueue.engine.DriverRegistrations;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;

/**
 * The SQL queue resource adapter. Its properties are the connection defaults that connection
 * pools and activations fall back to. Message-driven beans bind to it through their activation
 * properties (the inbound side); applications enqueue through the connection factory.
 */
@Connector(
        displayName = "SQL Queue Resource Adapter",
        description = "A database table (SQL Server, PostgreSQL or H2) as a transactional message queue:"
                + " enqueue inside the caller's transaction, deliver to message-driven beans inside theirs.",
        vendorName = "sqlqueue",
        eisType = "SQL table queue",
        version = "0.1",
        transactionSupport = TransactionSupport.TransactionSupportLevel.XATransaction,
        reauthenticationSupport = false)
public class QueueResourceAdapter implements ResourceAdapter {

    private static final Logger LOG = Logger.getLogger(QueueResourceAdapter.class.getName());

    @ConfigProperty(description = "Default JDBC URL of the queue database for connection pools and activations"
            + " that set none: jdbc:sqlserver:..., jdbc:postgresql:... or jdbc:h2:...")
    private String jdbcUrl = "";

    @ConfigProperty(description = "Default database user.")
    private String user = "";

    @ConfigProperty(description = "Default database password.", confidential = true)
    private String password = "";

    /** How long deactivation waits for deliveries in flight (servers allow about 30 s in all). */
    static final Duration DEACTIVATION_WAIT = Duration.ofSeconds(20);

    private volatile BootstrapContext context;
    /** Cached: the servers look it up in JNDI on every call, which showed in the delivery profile. */
    private volatile TransactionSynchronizationRegistry registry;
    private final Map<Key, QueueActivation> activations = new ConcurrentHashMap<>();
    /** The XA connections lent to the server for recovery, each with its own idle connections; closed at stop. */
    private final List<AutoCloseable> recoveryConnections = new CopyOnWriteArrayList<>();

    /** The adapter's own connections, per database and login, while an activation uses them. */
    private final Map<Login, OwnConnections> ownConnections = new HashMap<>();

    /** A database and login; never logged (it holds the password). */
    private record Login(String url, String user, String password) {
        @Override
        public String toString() {
            return DriverDataSources.withoutSecrets(url) + " as " + user;
        }
    }

    /** An activation's identity: the endpoint factory and the spec (which keeps identity equality). */
    private record Key(MessageEndpointFactory factory, ActivationSpec spec) {
    }
    /**
     * The pollers to wake on a committed enqueue, shared by every instance of this class: WildFly
     * starts an instance of its own for each connection factory an application declares, apart
     * from the one its message-driven beans are bound to. (One list per class loader, so per
     * deployment of the adapter; a wake-up for a same-named queue of another database only costs
     * that queue's pollers a poll.)
     */
    private static final List<EnqueueListener> ENQUEUE_LISTENERS = new CopyOnWriteArrayList<>();

    @Override
    public void start(BootstrapContext context) {
        this.context = context;
        DriverRegistrations.acquire();
        LOG.info(() -> "SQL queue resource adapter started" + (jdbcUrl.isEmpty() ? ""
                : ": default database " + DriverDataSources.withoutSecrets(jdbcUrl) + " as user '" + user + "'"));
    }

    @Override
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
        synchronized (ownConnections) { // none left unless an activation failed to give them back
            ownConnections.values().forEach(OwnConnections::close);
            ownConnections.clear();
        }
        context = null;
        registry = null;
        DriverRegistrations.release();
        LOG.info("SQL queue resource adapter stopped");
    }

    /**
     * Validates the bean's activation properties and schedules its poller; returns at once, even
     * when the database is down (the poller waits for it).
     */
    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        if (!(spec instanceof QueueActivationSpec queueSpec)) {
            throw new NotSupportedException("expected a " + QueueActivationSpec.class.getName() + ", got " + spec);
        }
        BootstrapContext c = context;
        if (c == null) {
            throw new IllegalStateException("the resource adapter is not started");
        }
        queueSpec.validate();
        DeliveryConnections connections = DeliveryConnections.of(queueSpec, this);
        QueueActivation activation;
        try {
            activation = new QueueActivation(this, c.getWorkManager(), factory, queueSpec, connections);
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
    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        QueueActivation activation = activations.remove(new Key(factory, spec));
        if (activation != null) {
            activation.stop(DEACTIVATION_WAIT);
        }
    }

    /**
     * XAResources for the server's recovery of in-doubt dequeues: one per activation that claims
     * through its own XA connections. (A server JDBC resource is recovered by the server itself.)
     */
    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) throws ResourceException {
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

    /** The server's registry, to learn when a transaction commits; null before start or outside a server. */
    public TransactionSynchronizationRegistry transactionSynchronizationRegistry() {
        TransactionSynchronizationRegistry found = registry;
        if (found == null) {
            BootstrapContext c = context;
            found = c == null ? null : c.getTransactionSynchronizationRegistry();
            registry = found;
        }
        return found;
    }

    /**
     * The own connections to this database and login, shared with the other activations that use
     * them, with room for an activation of {@code maxConcurrency} deliveries; give them back with
     * {@link #releaseOwnConnections}.
     *
     * @throws IllegalArgumentException when the URL names no supported database
     */
    OwnConnections ownConnections(String url, String user, String password, int maxConcurrency) {
        synchronized (ownConnections) {
            OwnConnections own = ownConnections.computeIfAbsent(new Login(url, user, password),
                    login -> new OwnConnections(url, user, password));
            own.users++;
            own.resize(maxConcurrency, +1);
            return own;
        }
    }

    /** An activation of {@code maxConcurrency} deliveries stopped using {@code own}; the last one closes them. */
    void releaseOwnConnections(OwnConnections own, int maxConcurrency) {
        synchronized (ownConnections) {
            own.resize(maxConcurrency, -1);
            if (--own.users == 0) {
                ownConnections.values().remove(own);
                own.close();
            }
        }
    }

    /** Registers a listener for committed enqueues (the pollers of a queue). */
    public void addEnqueueListener(EnqueueListener listener) {
        ENQUEUE_LISTENERS.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeEnqueueListener(EnqueueListener listener) {
        ENQUEUE_LISTENERS.remove(listener);
    }

    /**
     * An enqueue to {@code queue} through a connection factory of this adapter has committed:
     * wakes the queue's pollers, those of other instances of the adapter too.
     */
    public void enqueueCommitted(String queue) {
        for (EnqueueListener l : ENQUEUE_LISTENERS) {
            try {
                l.enqueueCommitted(queue);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "an enqueue listener failed for queue " + queue, e);
            }
        }
    }

    public String getJdbcUrl() {
        return jdbcUrl;
    }

    public void setJdbcUrl(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl == null ? "" : jdbcUrl.trim();
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user == null ? "" : user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password == null ? "" : password;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueueResourceAdapter ra && jdbcUrl.equals(ra.jdbcUrl) && user.equals(ra.user)
                && password.equals(ra.password);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jdbcUrl, user, password);
    }
}
