package io.sqlqueue.outbound.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.io.Serializable;

/**
 * The simplified API's context of the sender: a {@link JmsSession} (one pooled connection, until
 * {@link #close()}) behind the {@code JMSContext} methods, its JMSExceptions as the runtime
 * exceptions of the same meaning ({@link Refusals#runtime}). Single-threaded, as the specification
 * says, except {@link #close()}.
 */
final class JmsContextImpl implements JMSContext {

    private final JmsSession session;
    private volatile boolean autoStart = true;

    JmsContextImpl(JmsSession session) {
        this.session = session;
    }

    @Override
    public JMSProducer createProducer() {
        Refusals.unchecked(() -> {
            session.open("createProducer");
            return null;
        });
        return new JmsProducerImpl(session);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        throw Refusals.unsupportedRuntime("JMSContext.createContext", "Jakarta EE allows one session per connection:"
                + " call createContext on the connection factory instead");
    }

    @Override
    public void close() {
        session.close();
    }

    // ---- messages ---------------------------------------------------------------------------------

    @Override
    public BytesMessage createBytesMessage() {
        return Refusals.unchecked(session::createBytesMessage);
    }

    @Override
    public MapMessage createMapMessage() {
        return Refusals.unchecked(session::createMapMessage);
    }

    @Override
    public Message createMessage() {
        return Refusals.unchecked(session::createMessage);
    }

    @Override
    public ObjectMessage createObjectMessage() {
        return Refusals.unchecked(session::createObjectMessage);
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        return Refusals.unchecked(() -> session.createObjectMessage(object));
    }

    @Override
    public StreamMessage createStreamMessage() {
        return Refusals.unchecked(session::createStreamMessage);
    }

    @Override
    public TextMessage createTextMessage() {
        return Refusals.unchecked(session::createTextMessage);
    }

    @Override
    public TextMessage createTextMessage(String text) {
        return Refusals.unchecked(() -> session.createTextMessage(text));
    }

    // ---- transaction --------------------------------------------------------------------------------

    @Override
    public boolean getTransacted() {
        return Refusals.unchecked(session::getTransacted);
    }

    @Override
    public int getSessionMode() {
        return Refusals.unchecked(session::getAcknowledgeMode);
    }

    @Override
    public void commit() {
        Refusals.unchecked(() -> {
            session.commit();
            return null;
        });
    }

    @Override
    public void rollback() {
        Refusals.unchecked(() -> {
            session.rollback();
            return null;
        });
    }

    @Override
    public void recover() {
        Refusals.unchecked(() -> {
            session.recover();
            return null;
        });
    }

    /** Does nothing: the context received nothing to acknowledge. */
    @Override
    public void acknowledge() {
        Refusals.unchecked(() -> {
            session.open("acknowledge");
            return null;
        });
    }

    // ---- connection ---------------------------------------------------------------------------------

    @Override
    public String getClientID() {
        return null;
    }

    @Override
    public void setClientID(String clientID) {
        throw Refusals.unsupportedRuntime("setClientID", Refusals.CLIENT_ID);
    }

    @Override
    public ConnectionMetaData getMetaData() {
        return SenderMetaData.INSTANCE;
    }

    @Override
    public ExceptionListener getExceptionListener() {
        return null;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        throw Refusals.unsupportedRuntime("setExceptionListener", Refusals.LISTENER);
    }

    /** Does nothing: the context receives nothing. */
    @Override
    public void start() {
    }

    /** Does nothing: the context receives nothing. */
    @Override
    public void stop() {
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        this.autoStart = autoStart;
    }

    @Override
    public boolean getAutoStart() {
        return autoStart;
    }

    // ---- destinations ---------------------------------------------------------------------------------

    @Override
    public Queue createQueue(String queueName) {
        return Refusals.unchecked(() -> session.createQueue(queueName));
    }

    @Override
    public Topic createTopic(String topicName) {
        return Refusals.unchecked(() -> session.createTopic(topicName));
    }

    // ---- what the sender does not offer ---------------------------------------------------------------

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        throw Refusals.unsupportedRuntime("createConsumer", Refusals.RECEIVE);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        throw Refusals.unsupportedRuntime("createConsumer", Refusals.RECEIVE);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        throw Refusals.unsupportedRuntime("createConsumer", Refusals.RECEIVE);
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        throw Refusals.unsupportedRuntime("createSharedConsumer", Refusals.RECEIVE);
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        throw Refusals.unsupportedRuntime("createSharedConsumer", Refusals.RECEIVE);
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        throw Refusals.unsupportedRuntime("createDurableConsumer", Refusals.RECEIVE);
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        throw Refusals.unsupportedRuntime("createDurableConsumer", Refusals.RECEIVE);
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        throw Refusals.unsupportedRuntime("createSharedDurableConsumer", Refusals.RECEIVE);
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        throw Refusals.unsupportedRuntime("createSharedDurableConsumer", Refusals.RECEIVE);
    }

    /** The session's browser ({@link JmsSession#createBrowser(Queue)}). */
    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return Refusals.unchecked(() -> session.createBrowser(queue));
    }

    /** The session's browser; a bad selector throws InvalidSelectorRuntimeException. */
    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        return Refusals.unchecked(() -> session.createBrowser(queue, messageSelector));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        throw Refusals.unsupportedRuntime("createTemporaryQueue", Refusals.TEMPORARY);
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        throw Refusals.unsupportedRuntime("createTemporaryTopic", Refusals.TEMPORARY);
    }

    @Override
    public void unsubscribe(String name) {
        throw Refusals.unsupportedRuntime("unsubscribe", Refusals.SUBSCRIPTION);
    }
}
