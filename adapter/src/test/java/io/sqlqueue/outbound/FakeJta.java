package io.sqlqueue.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Timer;

/**
 * Just enough of a server's connection manager and transaction manager to drive the outbound side
 * in a JTA transaction, the way a server with a LocalTransaction pool does: in a transaction every
 * allocation gets a handle of the one managed connection the transaction began (connection
 * sharing), and commit or rollback ends it, then tells the synchronizations; outside one, each
 * allocation gets a connection of its own whose sends commit at once. Its registry is what the
 * resource adapter it starts reads. One transaction at a time, on the test's thread.
 */
final class FakeJta implements ConnectionManager {

    private static final long serialVersionUID = 1L;

    private transient Tx current;

    private static final class Tx {
        final ManagedConnection connection;
        final LocalTransaction local;
        final List<Synchronization> synchronizations = new ArrayList<>();

        Tx(ManagedConnection connection) throws ResourceException {
            this.connection = connection;
            this.local = connection.getLocalTransaction();
        }
    }

    /** Begins a transaction with one new connection of {@code factory}. */
    void begin(ManagedConnectionFactory factory) throws ResourceException {
        if (current != null) {
            throw new IllegalStateException("a transaction is already active");
        }
        Tx tx = new Tx(factory.createManagedConnection(null, null));
        tx.local.begin();
        current = tx;
    }

    void commit() throws ResourceException {
        end(true);
    }

    void rollback() throws ResourceException {
        end(false);
    }

    private void end(boolean commit) throws ResourceException {
        Tx tx = current;
        current = null;
        try {
            if (commit) {
                tx.local.commit();
            } else {
                tx.local.rollback();
            }
        } finally {
            tx.connection.destroy();
        }
        for (Synchronization s : tx.synchronizations) {
            s.afterCompletion(commit ? Status.STATUS_COMMITTED : Status.STATUS_ROLLEDBACK);
        }
    }

    @Override
    public Object allocateConnection(ManagedConnectionFactory factory, ConnectionRequestInfo info)
            throws ResourceException {
        Tx tx = current;
        if (tx != null) {
            return tx.connection.getConnection(null, info);
        }
        ManagedConnection mc = factory.createManagedConnection(null, info);
        mc.addConnectionEventListener(new ConnectionEventListener() {
            @Override
            public void connectionClosed(ConnectionEvent event) {
                destroy(mc);
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                destroy(mc);
            }

            @Override
            public void localTransactionStarted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionCommitted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionRolledback(ConnectionEvent event) {
            }
        });
        return mc.getConnection(null, info);
    }

    private static void destroy(ManagedConnection mc) {
        try {
            mc.destroy();
        } catch (ResourceException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A bootstrap context whose registry is this transaction manager's. */
    BootstrapContext bootstrap() {
        return new BootstrapContext() {
            @Override
            public WorkManager getWorkManager() {
                throw new UnsupportedOperationException("the outbound tests run no work");
            }

            @Override
            public XATerminator getXATerminator() {
                return null;
            }

            @Override
            public Timer createTimer() {
                throw new UnsupportedOperationException("the adapter must not use timers");
            }

            @Override
            public boolean isContextSupported(Class<? extends WorkContext> workContextClass) {
                return false;
            }

            @Override
            public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
                return registry();
            }
        };
    }

    private TransactionSynchronizationRegistry registry() {
        return new TransactionSynchronizationRegistry() {
            @Override
            public Object getTransactionKey() {
                return current;
            }

            @Override
            public void putResource(Object key, Object value) {
                throw new UnsupportedOperationException("the adapter keeps no state in the transaction registry");
            }

            @Override
            public Object getResource(Object key) {
                throw new UnsupportedOperationException("the adapter keeps no state in the transaction registry");
            }

            @Override
            public void registerInterposedSynchronization(Synchronization sync) {
                current.synchronizations.add(sync);
            }

            @Override
            public int getTransactionStatus() {
                return current == null ? Status.STATUS_NO_TRANSACTION : Status.STATUS_ACTIVE;
            }

            @Override
            public void setRollbackOnly() {
                throw new UnsupportedOperationException("not used by the adapter's sender");
            }

            @Override
            public boolean getRollbackOnly() {
                return false;
            }
        };
    }
}
