package io.sqlqueue.inbound;

import io.sqlqueue.engine.DriverDataSources;
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
    private final List<EnqueueListener> enqueueListeners = new CopyOnWriteArrayList<>();

    @Override
    public void start(BootstrapContext context) {
        this.context = context;
        LOG.info(() -> "SQL queue resource adapter started" + (jdbcUrl.isEmpty() ? ""
                : ": default database " + DriverDataSources.withoutSecrets(jdbcUrl) + " as user '" + user + "'"));
    }

    @Override
    public void stop() {
        enqueueListeners.clear();
        context = null;
        LOG.info("SQL queue resource adapter stopped");
    }

    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        throw new NotSupportedException("message-driven beans are not supported by this version of the adapter");
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        // nothing was activated
    }

    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) {
        return new XAResource[0];
    }

    /** The server's registry, to learn when a transaction commits; null before start or outside a server. */
    public TransactionSynchronizationRegistry transactionSynchronizationRegistry() {
        BootstrapContext c = context;
        return c == null ? null : c.getTransactionSynchronizationRegistry();
    }

    /** Registers a listener for committed enqueues (the pollers of a queue). */
    public void addEnqueueListener(EnqueueListener listener) {
        enqueueListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeEnqueueListener(EnqueueListener listener) {
        enqueueListeners.remove(listener);
    }

    /** An enqueue to {@code queue} through the connection factory has committed. */
    public void enqueueCommitted(String queue) {
        for (EnqueueListener l : enqueueListeners) {
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
