package io.sqlqueue;

import io.sqlqueue.engine.DriverRegistrations;
import io.sqlqueue.inbound.Activations;
import io.sqlqueue.inbound.EnqueueListener;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.List;
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

    private volatile BootstrapContext context;
    /** Cached: the servers look it up in JNDI on every call, which showed in the delivery profile. */
    private volatile TransactionSynchronizationRegistry registry;
    private final Activations activations = new Activations(this);

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
                : ": default database " + DatabaseLogin.of(jdbcUrl, user, password, null)));
    }

    @Override
    public void stop() {
        activations.stop();
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
        BootstrapContext c = context;
        if (c == null) {
            throw new IllegalStateException("the resource adapter is not started");
        }
        activations.activate(factory, spec, c.getWorkManager());
    }

    /** Stops the poller and waits (bounded) for deliveries in flight; leaves no work behind. */
    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        activations.deactivate(factory, spec);
    }

    /**
     * XAResources for the server's recovery of in-doubt dequeues: one per activation that claims
     * through its own XA connections. (A server JDBC resource is recovered by the server itself.)
     */
    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) throws ResourceException {
        return activations.recoveryResources(specs);
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
