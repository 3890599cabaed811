package io.sqlqueue.outbound.jms;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.List;

/**
 * The classic API's connection of the sender: light, holding no database connection itself; each
 * {@link #createSession} takes one from the pool for its session ({@link JmsSession}), as the
 * Artemis adapter's sessions do. {@code start} and {@code stop} do nothing (nothing is received);
 * a client id, an exception listener and connection consumers are refused ({@link Refusals}).
 * Thread-safe, as the specification says of a connection.
 */
final class JmsConnection implements Connection {

    private final JmsConnectionFactory factory;
    private final List<JmsSession> sessions = new ArrayList<>();
    private volatile boolean closed;

    JmsConnection(JmsConnectionFactory factory) {
        this.factory = factory;
    }

    private void open(String operation) throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException(operation + ": the connection is closed");
        }
    }

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return createSession(transacted ? Session.SESSION_TRANSACTED : acknowledgeMode);
    }

    /**
     * A session with one pooled connection: in a JTA transaction its sends join it, whatever the
     * mode; outside one each send commits at once, and a transacted mode is refused
     * ({@link SessionModes}).
     */
    @Override
    public Session createSession(int sessionMode) throws JMSException {
        open("createSession");
        int mode = SessionModes.of(factory.inTransaction(), sessionMode, "createSession");
        JmsSession session = new JmsSession(factory.queueConnection(), mode, this::forget);
        synchronized (this) {
            sessions.add(session);
        }
        return session;
    }

    @Override
    public Session createSession() throws JMSException {
        return createSession(Session.AUTO_ACKNOWLEDGE);
    }

    private synchronized void forget(JmsSession session) {
        sessions.remove(session);
    }

    /** Closes its sessions, which give their connections back to the pool; closing twice does nothing. */
    @Override
    public void close() {
        List<JmsSession> open;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(sessions);
        }
        open.forEach(JmsSession::close);
    }

    /** Does nothing: the connection receives nothing. */
    @Override
    public void start() throws JMSException {
        open("start");
    }

    /** Does nothing: the connection receives nothing. */
    @Override
    public void stop() throws JMSException {
        open("stop");
    }

    @Override
    public String getClientID() throws JMSException {
        open("getClientID");
        return null;
    }

    @Override
    public void setClientID(String clientID) throws JMSException {
        throw Refusals.unsupported("setClientID", Refusals.CLIENT_ID);
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        open("getMetaData");
        return SenderMetaData.INSTANCE;
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        open("getExceptionListener");
        return null;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        throw Refusals.unsupported("setExceptionListener", Refusals.LISTENER);
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Destination destination, String messageSelector,
            ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw Refusals.unsupported("createConnectionConsumer", Refusals.RECEIVE);
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(Topic topic, String subscriptionName,
            String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw Refusals.unsupported("createSharedConnectionConsumer", Refusals.RECEIVE);
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName,
            String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw Refusals.unsupported("createDurableConnectionConsumer", Refusals.RECEIVE);
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
            String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw Refusals.unsupported("createSharedDurableConnectionConsumer", Refusals.RECEIVE);
    }
}
