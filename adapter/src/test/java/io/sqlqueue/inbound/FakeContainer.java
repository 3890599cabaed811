package io.sqlqueue.inbound;

import io.sqlqueue.api.BatchQueueListener;
import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.TestXid;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Timer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * Just enough of an application server to drive the inbound side in a unit test, the way the
 * servers do: a work manager on threads, and message endpoints whose beforeDelivery begins a
 * thread-bound transaction enlisting the endpoint's XAResource, and whose afterDelivery commits it
 * in one phase, or rolls it back when the bean threw or set rollback-only (then the bean's
 * exception reaches the adapter wrapped, as EJBException would). Synchronizations registered
 * through the registry hear the outcome.
 */
final class FakeContainer implements BootstrapContext {

    /** What a test bean does with a message or batch; throw to fail the delivery. */
    interface Bean {
        void onMessages(List<QueueMessage> messages) throws Exception;
    }

    /** A Jakarta Messaging bean's onMessage. */
    interface JmsBean {
        void onMessage(jakarta.jms.Message message) throws Exception;
    }

    final AtomicInteger activeWorks = new AtomicInteger();
    /** Works handed to the work manager, and those whose release() the work manager has called after run(). */
    final AtomicInteger worksScheduled = new AtomicInteger();
    final AtomicInteger worksReleased = new AtomicInteger();
    /** Runs on the thread that schedules a Work (the poller's, for a delivery), before the Work runs. */
    volatile java.util.function.Consumer<Work> onWorkScheduled = work -> { };
    final AtomicInteger endpointsCreated = new AtomicInteger();
    /** The next this many createEndpoint calls fail as when the container has no bean instance free. */
    final AtomicInteger unavailableEndpoints = new AtomicInteger();
    final AtomicInteger rollbacks = new AtomicInteger();
    /**
     * The next this many transacted deliveries get no transaction from beforeDelivery, as from a
     * container that is tearing the bean down (seen on Payara during undeployment).
     */
    final AtomicInteger deliveriesWithoutTransaction = new AtomicInteger();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final ThreadLocal<Tx> current = new ThreadLocal<>();

    private static final class Tx {
        final List<Synchronization> synchronizations = new ArrayList<>();
        /** The connection of {@link #enlisting} in this transaction, committed or rolled back with it. */
        Connection connection;
        XAResource resource;
        Xid xid;
        boolean rollbackOnly;
    }

    /** A factory for a bean implementing QueueListener (or BatchQueueListener when {@code batch}). */
    MessageEndpointFactory endpointFactory(Bean bean, boolean batch, boolean transacted) {
        return endpointFactory(batch ? BatchQueueListener.class : QueueListener.class, bean, null, transacted);
    }

    /** A factory for a bean implementing jakarta.jms.MessageListener. */
    MessageEndpointFactory jmsEndpointFactory(JmsBean bean, boolean transacted) {
        return endpointFactory(jakarta.jms.MessageListener.class, null, bean, transacted);
    }

    private MessageEndpointFactory endpointFactory(Class<?> listener, Bean bean, JmsBean jmsBean, boolean transacted) {
        return new MessageEndpointFactory() {
            @Override
            public MessageEndpoint createEndpoint(XAResource resource) throws UnavailableException {
                if (unavailableEndpoints.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new UnavailableException("no bean instance free (simulated)");
                }
                endpointsCreated.incrementAndGet();
                return endpoint(bean, jmsBean, listener, resource, transacted);
            }

            @Override
            public MessageEndpoint createEndpoint(XAResource resource, long timeout) throws UnavailableException {
                return createEndpoint(resource);
            }

            @Override
            public boolean isDeliveryTransacted(Method method) {
                return transacted;
            }

            @Override
            public String getActivationName() {
                return "test";
            }

            @Override
            public Class<?> getEndpointClass() {
                return listener;
            }
        };
    }

    private MessageEndpoint endpoint(Bean bean, JmsBean jmsBean, Class<?> listener, XAResource resource,
            boolean transacted) {
        return (MessageEndpoint) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {MessageEndpoint.class, listener}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "beforeDelivery" -> {
                            if (transacted && deliveriesWithoutTransaction.getAndUpdate(n -> Math.max(0, n - 1)) == 0) {
                                begin(resource);
                            }
                            return null;
                        }
                        case "afterDelivery" -> {
                            if (transacted && current.get() != null) {
                                complete();
                            }
                            return null;
                        }
                        case "release" -> {
                            return null;
                        }
                        case "onMessage", "onMessages" -> {
                            try {
                                if (jmsBean != null) {
                                    jmsBean.onMessage((jakarta.jms.Message) args[0]);
                                } else {
                                    @SuppressWarnings("unchecked")
                                    List<QueueMessage> messages = method.getName().equals("onMessage")
                                            ? List.of((QueueMessage) args[0]) : (List<QueueMessage>) args[0];
                                    bean.onMessages(messages);
                                }
                            } catch (Exception e) {
                                Tx tx = current.get();
                                if (tx != null) {
                                    tx.rollbackOnly = true;
                                }
                                throw new IllegalStateException("bean failed (as EJBException)", e);
                            }
                            return null;
                        }
                        case "toString" -> {
                            return "test endpoint";
                        }
                        case "hashCode" -> {
                            return System.identityHashCode(proxy);
                        }
                        case "equals" -> {
                            return proxy == args[0];
                        }
                        default -> throw new UnsupportedOperationException(
                                "the adapter called " + method.getName() + ", which no test endpoint expects");
                    }
                });
    }

    private void begin(XAResource resource) throws XAException {
        Tx tx = new Tx();
        tx.resource = resource;
        if (resource != null) {
            tx.xid = TestXid.next();
            resource.start(tx.xid, XAResource.TMNOFLAGS);
        }
        current.set(tx);
    }

    private void complete() throws XAException {
        Tx tx = current.get();
        current.remove();
        boolean commit = !tx.rollbackOnly;
        for (Synchronization s : tx.synchronizations) {
            s.beforeCompletion();
        }
        if (tx.resource != null) {
            tx.resource.end(tx.xid, commit ? XAResource.TMSUCCESS : XAResource.TMFAIL);
            if (commit) {
                tx.resource.commit(tx.xid, true);
            } else {
                tx.resource.rollback(tx.xid);
            }
        }
        if (tx.connection != null) {
            try (Connection c = tx.connection) {
                if (commit) {
                    c.commit();
                } else {
                    c.rollback();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        if (!commit) {
            rollbacks.incrementAndGet();
        }
        for (Synchronization s : tx.synchronizations) {
            s.afterCompletion(commit ? Status.STATUS_COMMITTED : Status.STATUS_ROLLEDBACK);
        }
    }

    /** Whether the current thread is in a transaction of this container. */
    boolean inTransaction() {
        return current.get() != null;
    }

    /**
     * A server JDBC resource over {@code plain}: inside a transaction one connection, enlisted
     * (no auto-commit, committed or rolled back with the transaction, closing it is a no-op);
     * outside one, a plain connection in auto-commit mode.
     */
    DataSource enlisting(DataSource plain) {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("getConnection")) {
                        return invoke(method, plain, args);
                    }
                    Tx tx = current.get();
                    if (tx == null) {
                        return plain.getConnection();
                    }
                    if (tx.connection == null) {
                        tx.connection = plain.getConnection();
                        tx.connection.setAutoCommit(false);
                    }
                    Connection enlisted = tx.connection;
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                            (p, m, a) -> m.getName().equals("close") ? null : invoke(m, enlisted, a));
                });
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Runs {@code action} when the current thread's transaction commits (at once without one). */
    void onCommit(Runnable action) {
        Tx tx = current.get();
        if (tx == null) {
            action.run();
            return;
        }
        tx.synchronizations.add(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    action.run();
                }
            }
        });
    }

    void setRollbackOnly() {
        current.get().rollbackOnly = true;
    }

    void shutdown() {
        threads.shutdownNow();
    }

    // ---- BootstrapContext ---------------------------------------------------------------------

    @Override
    public WorkManager getWorkManager() {
        return new WorkManager() {
            @Override
            public void doWork(Work work) {
                run(work);
            }

            @Override
            public void doWork(Work work, long timeout, ExecutionContext ec, WorkListener listener) {
                run(work);
            }

            @Override
            public long startWork(Work work) {
                scheduleWork(work);
                return 0;
            }

            @Override
            public long startWork(Work work, long timeout, ExecutionContext ec, WorkListener listener) {
                scheduleWork(work);
                return 0;
            }

            @Override
            public void scheduleWork(Work work) {
                worksScheduled.incrementAndGet();
                onWorkScheduled.accept(work);
                activeWorks.incrementAndGet();
                threads.execute(() -> {
                    try {
                        work.run();
                    } finally {
                        activeWorks.decrementAndGet();
                        work.release(); // as WildFly's work manager does after every Work
                        worksReleased.incrementAndGet();
                    }
                });
            }

            @Override
            public void scheduleWork(Work work, long timeout, ExecutionContext ec, WorkListener listener) {
                scheduleWork(work);
            }

            private void run(Work work) {
                work.run();
            }
        };
    }

    @Override
    public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
        return new TransactionSynchronizationRegistry() {
            @Override
            public Object getTransactionKey() {
                return current.get();
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
                current.get().synchronizations.add(sync);
            }

            @Override
            public int getTransactionStatus() {
                Tx tx = current.get();
                return tx == null ? Status.STATUS_NO_TRANSACTION
                        : tx.rollbackOnly ? Status.STATUS_MARKED_ROLLBACK : Status.STATUS_ACTIVE;
            }

            @Override
            public void setRollbackOnly() {
                current.get().rollbackOnly = true;
            }

            @Override
            public boolean getRollbackOnly() {
                return current.get().rollbackOnly;
            }
        };
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

    static Throwable unwrap(Throwable t) {
        return t instanceof InvocationTargetException i ? i.getCause() : t;
    }
}
