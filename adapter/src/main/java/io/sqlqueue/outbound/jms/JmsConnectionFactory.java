package io.sqlqueue.outbound.jms;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.api.QueueException;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.resource.Referenceable;
import java.io.Serializable;
import javax.naming.Reference;

/**
 * The Jakarta Messaging {@link ConnectionFactory} the server binds in JNDI for a connection pool of
 * the adapter's JMS connection definition ({@code io.sqlqueue.outbound.JmsManagedConnectionFactory}):
 *
 * <pre>{@code
 * @Resource(lookup = "java:app/jms/orders") ConnectionFactory factory;
 * @Resource(lookup = "java:app/jms/ordersQueue") Queue orders;
 *
 * try (JMSContext context = factory.createContext()) {
 *     context.createProducer().setProperty("quantity", 5).send(orders, json);
 * }
 * }</pre>
 *
 * <p>A {@code JMSContext}, or a session of a {@code Connection}, holds one connection of the pool, a
 * {@code QueueConnection} handle, until it is closed: its sends are enqueued as that connection's
 * are, in the caller's JTA transaction (or each at once outside one). It sends and browses (a
 * {@code QueueBrowser} peeks at the queue table); it does not receive: see docs/semantics.md ("The
 * JMS sender") for the mapping, browsing and what is refused.
 * Thread-safe: share one instance. Serializable and referenceable, as JNDI binds it.
 */
public class JmsConnectionFactory implements ConnectionFactory, Serializable, Referenceable {

    private static final long serialVersionUID = 1L;

    private final QueueConnectionFactory queues;
    private final TransactionProbe transactions;
    private Reference reference;

    /** Made by the adapter's managed connection factory, over its {@code QueueConnectionFactory}. */
    public JmsConnectionFactory(QueueConnectionFactory queues, TransactionProbe transactions) {
        this.queues = queues;
        this.transactions = transactions;
    }

    /** A connection of the pool, enlisted in the caller's transaction if there is one. */
    QueueConnection queueConnection() throws JMSException {
        try {
            return queues.getConnection();
        } catch (QueueException e) {
            JMSException failed = new JMSException(e.getMessage());
            failed.setLinkedException(e);
            failed.initCause(e);
            throw failed;
        }
    }

    boolean inTransaction() {
        return transactions.inTransaction();
    }

    @Override
    public Connection createConnection() {
        return new JmsConnection(this);
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        throw Refusals.unsupported("createConnection(userName, password)", Refusals.CREDENTIALS);
    }

    @Override
    public JMSContext createContext() {
        return createContext(JMSContext.AUTO_ACKNOWLEDGE);
    }

    /**
     * A context with one pooled connection: in a JTA transaction its sends join it, whatever the
     * mode; outside one each send commits at once, and {@code SESSION_TRANSACTED} is refused.
     *
     * @throws jakarta.jms.JMSRuntimeException naming the cause when no connection can be had
     */
    @Override
    public JMSContext createContext(int sessionMode) {
        return Refusals.unchecked(() -> {
            int mode = SessionModes.of(inTransaction(), sessionMode, "createContext");
            return new JmsContextImpl(new JmsSession(queueConnection(), mode, session -> { }));
        });
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        throw Refusals.unsupportedRuntime("createContext(userName, password)", Refusals.CREDENTIALS);
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        throw Refusals.unsupportedRuntime("createContext(userName, password, sessionMode)", Refusals.CREDENTIALS);
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }
}
