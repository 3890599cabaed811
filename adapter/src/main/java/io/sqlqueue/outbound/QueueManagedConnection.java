package io.sqlqueue.outbound;

import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.Tracing;
import io.sqlqueue.api.MessageInDeliveryException;
import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueException;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.Browse;
import io.sqlqueue.engine.MessageSelector;
import io.sqlqueue.engine.Cancellation;
import io.sqlqueue.engine.ConnectionHealth;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.TableName;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import javax.security.auth.Subject;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;

/**
 * One physical database connection (or, with {@code dataSourceJndiName}, none: each send borrows
 * one from the server resource), pooled by the server. Handles ({@link QueueConnectionHandle})
 * are what applications hold; the server moves them between managed connections.
 */
final class QueueManagedConnection implements ManagedConnection {

    private final QueueManagedConnectionFactory factory;
    private final XAConnection xaConnection;
    private final Connection connection;
    /** The user the physical connection was opened as; null through a server resource. */
    private final String user;
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private final Set<QueueConnectionHandle> handles = new LinkedHashSet<>();
    /** Queues sent to inside the current local transaction: woken when it commits. */
    private final Set<String> sentInLocalTransaction = new LinkedHashSet<>();
    private boolean inLocalTransaction;
    private volatile boolean destroyed;
    private volatile boolean broken;
    /** The factory's breakage count when this connection was last known good. */
    private volatile long checkedAtBreakage;
    private PrintWriter logWriter;

    QueueManagedConnection(QueueManagedConnectionFactory factory, XAConnection xaConnection, Connection connection,
            String user) {
        this.factory = factory;
        this.xaConnection = xaConnection;
        this.connection = connection;
        this.user = user;
        factory.monitor().connectionCreated();
    }

    QueueManagedConnectionFactory factory() {
        return factory;
    }

    boolean isUsable() {
        return !destroyed && !broken;
    }

    /**
     * Usable, and, if a connection of its factory broke since this one was last checked, still
     * valid: a broken connection is never handed out again (it stays unmatched until the pool
     * discards it). Asks its own factory: servers may match through another, equal instance.
     */
    boolean isUsableAfterBreakages() {
        if (!isUsable()) {
            return false;
        }
        long breakages = factory.breakages();
        if (connection != null && breakages > checkedAtBreakage) {
            checkedAtBreakage = breakages;
            broken = !ConnectionHealth.answers(connection);
        }
        return !broken;
    }

    String user() {
        return user;
    }

    // ---- handles ------------------------------------------------------------------------------

    @Override
    public synchronized Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        checkNotDestroyed();
        QueueConnectionHandle handle = new QueueConnectionHandle(this);
        handles.add(handle);
        return handle;
    }

    @Override
    public void associateConnection(Object h) throws ResourceException {
        checkNotDestroyed();
        if (!(h instanceof QueueConnectionHandle handle)) {
            throw new ResourceException("not a queue connection handle: " + h);
        }
        QueueManagedConnection previous = handle.reassociate(this);
        if (previous != null && previous != this) {
            previous.forget(handle);
        }
        synchronized (this) {
            handles.add(handle);
        }
    }

    private synchronized void forget(QueueConnectionHandle handle) {
        handles.remove(handle);
    }

    /** A handle was closed by the application: tell the server, which returns us to the pool. */
    void closed(QueueConnectionHandle handle) {
        forget(handle);
        ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_CLOSED);
        event.setConnectionHandle(handle);
        for (ConnectionEventListener l : listeners) {
            l.connectionClosed(event);
        }
    }

    /** The connection broke: tell the server, which destroys us instead of pooling us again. */
    private void reportBroken(Exception cause) {
        ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_ERROR_OCCURRED, cause);
        for (ConnectionEventListener l : listeners) {
            l.connectionErrorOccurred(event);
        }
    }

    @Override
    public void cleanup() throws ResourceException {
        List<QueueConnectionHandle> invalid;
        synchronized (this) {
            invalid = new ArrayList<>(handles);
            handles.clear();
            sentInLocalTransaction.clear();
            inLocalTransaction = false;
        }
        invalid.forEach(QueueConnectionHandle::invalidate);
        if (connection != null && !destroyed) {
            try {
                if (!connection.getAutoCommit()) {
                    connection.rollback(); // nothing half-done survives into the next borrower
                    connection.setAutoCommit(true);
                }
            } catch (SQLException e) {
                throw new ResourceException("cannot reset the queue connection: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void destroy() throws ResourceException {
        if (destroyed) {
            return;
        }
        destroyed = true;
        factory.monitor().connectionDestroyed();
        List<QueueConnectionHandle> invalid;
        synchronized (this) {
            invalid = new ArrayList<>(handles);
            handles.clear();
        }
        invalid.forEach(QueueConnectionHandle::invalidate);
        try {
            if (xaConnection != null) {
                xaConnection.close();
            } else if (connection != null) {
                connection.close();
            }
        } catch (SQLException e) {
            QueueManagedConnectionFactory.log().log(Level.FINE, "closing a queue connection failed", e);
        }
    }

    private void checkNotDestroyed() throws ResourceException {
        if (destroyed) {
            throw new ResourceException("this queue connection has been destroyed");
        }
    }

    // ---- sending ------------------------------------------------------------------------------

    long[] send(String queue, List<OutgoingMessage> sent, boolean batch) {
        long started = System.nanoTime();
        List<OutgoingMessage> messages = Tracing.withCurrentContext(sent);
        long[] ids = onConnection("enqueue to '" + queue + "'", c -> {
            QueueTable table = factory.queue(c, queue);
            return batch ? table.sendAll(c, messages) : new long[] {table.send(c, messages.get(0))};
        });
        afterSend(queue);
        factory.monitor().sent(ids.length, started);
        return ids;
    }

    int publish(String topic, OutgoingMessage message) {
        long started = System.nanoTime();
        List<TableName> reached = onConnection("publish to topic '" + topic + "'",
                c -> factory.topic(c, topic).publish(c, Tracing.withCurrentContext(message)));
        reached.forEach(queue -> afterSend(queue.toString()));
        factory.monitor().sent(reached.size(), started);
        return reached.size();
    }

    boolean cancel(String queue, long messageId) {
        return cancelled(queue, null, onConnection("cancel message " + messageId + " in '" + queue + "'",
                c -> factory.queue(c, queue).cancel(c, messageId)));
    }

    boolean cancelByDedupKey(String queue, String dedupKey) {
        return cancelled(queue, dedupKey, onConnection("cancel the message with dedup key '" + dedupKey + "' in '"
                + queue + "'", c -> factory.queue(c, queue).cancelByDedupKey(c, dedupKey)));
    }

    /** A browse of {@code queue}: the connection tells which database's SQL it reads with. */
    Browse browse(String queue, MessageSelector selector) {
        return onConnection("browse queue '" + queue + "'", c -> factory.queue(c, queue).browse(selector));
    }

    /** The next page of {@code browse}, read on this connection (or the server resource's) in the caller's transaction. */
    List<QueueMessage> next(Browse browse) {
        return onConnection("browse queue '" + browse.queue().name() + "'", browse::next);
    }

    /** Whether the cancel removed the message; a message in delivery is refused with its exception. */
    private boolean cancelled(String queue, String dedupKey, Cancellation done) {
        boolean removed = done.outcome() == Cancellation.Outcome.CANCELLED;
        factory.monitor().cancelled(removed);
        if (done.outcome() == Cancellation.Outcome.LEASED || done.outcome() == Cancellation.Outcome.HELD) {
            String message = dedupKey == null ? "message " + done.messageId()
                    : "the message with dedup key '" + dedupKey + "'" + (done.messageId() == 0 ? ""
                            : " (id " + done.messageId() + ")");
            throw new MessageInDeliveryException(queue, done.messageId(), dedupKey, "cannot cancel " + message
                    + " in queue '" + queue + "': " + (done.outcome() == Cancellation.Outcome.LEASED
                            ? "a consumer has leased it and its lease has not run out (it is in delivery, or"
                                    + " leased ahead for one)"
                            : "a consumer's transaction holds it (a delivery in progress)")
                    + "; nothing was changed, and it will be delivered, or retried if the delivery fails");
        }
        return removed;
    }

    /** Work on one of the caller's connections: a database failure becomes a {@link QueueException}. */
    @FunctionalInterface
    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} on this connection, or with {@code dataSourceJndiName} on a connection
     * borrowed inside the caller's transaction (so the server resource enlists it).
     */
    private <T> T onConnection(String what, Work<T> work) {
        try {
            if (factory.usesServerDataSource()) {
                try (Connection c = factory.serverDataSource().getConnection()) {
                    return work.run(c);
                }
            }
            return work.run(connection);
        } catch (SQLException e) {
            if (isBroken(e) && !broken) {
                broken = true;
                factory.connectionBroke();
                reportBroken(e);
            }
            throw failed(what, e);
        } catch (ResourceException e) {
            throw failed(what, e);
        }
    }

    private QueueException failed(String what, Exception e) {
        QueueException failure = new QueueException("cannot " + what + ": " + e.getMessage(), e);
        factory.monitor().failed(failure.getMessage());
        return failure;
    }

    /**
     * An XA call failed: if the connection is dead, stop handing it out, tell the factory (its
     * other idle connections get checked) and the server (which destroys this one).
     */
    void checkAfterFailure(Exception failure) {
        boolean dead = connection == null || !ConnectionHealth.answers(connection);
        if (dead && !broken) {
            broken = true;
            factory.connectionBroke();
            reportBroken(failure);
        }
    }

    /** Is the physical connection unusable after this failure? ({@link ConnectionHealth}) */
    private boolean isBroken(SQLException e) {
        if (connection == null) {
            return false; // a borrowed server connection: the server's own pool judges it
        }
        return !ConnectionHealth.usableAfter(connection, e);
    }

    /**
     * Wakes the queue's pollers once the enqueue is committed: at JTA commit (a synchronization),
     * at local commit, or at once in auto-commit.
     */
    private void afterSend(String queue) {
        QueueResourceAdapter ra = factory.resourceAdapterOrNull();
        TransactionSynchronizationRegistry registry = ra == null ? null : ra.transactionSynchronizationRegistry();
        if (registry != null && registry.getTransactionKey() != null) {
            registry.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        factory.enqueueCommitted(queue);
                    }
                }
            });
            return;
        }
        synchronized (this) {
            if (inLocalTransaction) {
                sentInLocalTransaction.add(queue);
                return;
            }
        }
        factory.enqueueCommitted(queue);
    }

    // ---- transactions -------------------------------------------------------------------------

    @Override
    public XAResource getXAResource() throws ResourceException {
        if (xaConnection == null) {
            throw new NotSupportedException(factory.usesServerDataSource()
                    ? "with dataSourceJndiName the server JDBC resource enlists itself: use NoTransaction support"
                    : "XA is off (useXA=false): use LocalTransaction or NoTransaction support");
        }
        try {
            return new BreakageAwareXAResource(xaConnection.getXAResource(), this);
        } catch (SQLException e) {
            throw new ResourceException("cannot get the database's XAResource: " + e.getMessage(), e);
        }
    }

    @Override
    public LocalTransaction getLocalTransaction() throws ResourceException {
        if (connection == null) {
            throw new NotSupportedException(
                    "with dataSourceJndiName the server JDBC resource enlists itself: use NoTransaction support");
        }
        return new LocalTransaction() {
            @Override
            public void begin() throws ResourceException {
                try {
                    connection.setAutoCommit(false);
                } catch (SQLException e) {
                    throw new ResourceException("cannot begin a local transaction: " + e.getMessage(), e);
                }
                synchronized (QueueManagedConnection.this) {
                    inLocalTransaction = true;
                    sentInLocalTransaction.clear();
                }
            }

            @Override
            public void commit() throws ResourceException {
                end(true);
            }

            @Override
            public void rollback() throws ResourceException {
                end(false);
            }
        };
    }

    private void end(boolean commit) throws ResourceException {
        List<String> committed;
        try {
            if (commit) {
                connection.commit();
            } else {
                connection.rollback();
            }
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            throw new ResourceException("cannot " + (commit ? "commit" : "roll back") + " the local transaction: "
                    + e.getMessage(), e);
        } finally {
            synchronized (this) {
                committed = commit ? new ArrayList<>(sentInLocalTransaction) : List.of();
                sentInLocalTransaction.clear();
                inLocalTransaction = false;
            }
        }
        committed.forEach(factory::enqueueCommitted);
    }

    // ---- the rest of the contract -------------------------------------------------------------

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public ManagedConnectionMetaData getMetaData() {
        return new ManagedConnectionMetaData() {
            @Override
            public String getEISProductName() throws ResourceException {
                try {
                    return connection == null ? "server JDBC resource " + factory.getDataSourceJndiName()
                            : connection.getMetaData().getDatabaseProductName();
                } catch (SQLException e) {
                    throw new ResourceException(e.getMessage(), e);
                }
            }

            @Override
            public String getEISProductVersion() throws ResourceException {
                try {
                    return connection == null ? "" : connection.getMetaData().getDatabaseProductVersion();
                } catch (SQLException e) {
                    throw new ResourceException(e.getMessage(), e);
                }
            }

            @Override
            public int getMaxConnections() {
                return 0; // no limit of our own
            }

            @Override
            public String getUserName() {
                return user;
            }
        };
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }
}
