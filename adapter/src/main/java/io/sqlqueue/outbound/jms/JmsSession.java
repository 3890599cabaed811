package io.sqlqueue.outbound.jms;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.jms.JmsQueue;
import io.sqlqueue.jms.JmsTopic;
import io.sqlqueue.outbound.QueueBrowsing;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import jakarta.jms.TransactionInProgressException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A JMS session of the sender: one {@link QueueConnection} handle from the server's pool, held
 * until {@link #close()}, so its sends are enlisted, pooled and transacted exactly as a
 * {@code QueueConnection}'s. It makes messages, producers and queue browsers (a peek at the queue
 * table on this connection: {@link JmsQueueBrowser}); what it does not offer (consumers, temporary destinations, subscriptions, the bodies other than text and bytes) throws a
 * JMSException naming the operation and what to do instead ({@link Refusals}). Single-threaded, as
 * the specification says, except {@link #close()}.
 */
final class JmsSession implements Session {

    private final QueueConnection queues;
    private final int mode;
    private final Consumer<JmsSession> onClose;
    private final List<JmsMessageProducer> producers = new ArrayList<>();
    private volatile boolean closed;

    /**
     * @param mode    as {@link SessionModes#of} decided it
     * @param onClose tells the connection the session is closed
     */
    JmsSession(QueueConnection queues, int mode, Consumer<JmsSession> onClose) {
        this.queues = queues;
        this.mode = mode;
        this.onClose = onClose;
    }

    /** Sends through this session's connection (see {@link JmsSender#send}). */
    void send(Destination destination, Message message, SendOptions options, JmsSender.Overrides overrides)
            throws JMSException {
        open("send");
        JmsSender.send(queues, destination, message, options, overrides);
    }

    void open(String operation) throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException(operation + ": the session is closed");
        }
    }

    // ---- messages ---------------------------------------------------------------------------------

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        open("createBytesMessage");
        return new OutgoingBytesMessage(null);
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        throw Refusals.unsupported("createMapMessage", Refusals.OTHER_BODIES);
    }

    @Override
    public Message createMessage() throws JMSException {
        open("createMessage");
        return new OutgoingJmsMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        throw Refusals.unsupported("createObjectMessage", Refusals.OTHER_BODIES);
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        throw Refusals.unsupported("createObjectMessage", Refusals.OTHER_BODIES);
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        throw Refusals.unsupported("createStreamMessage", Refusals.OTHER_BODIES);
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        return createTextMessage(null);
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        open("createTextMessage");
        return new OutgoingTextMessage(text);
    }

    // ---- transaction --------------------------------------------------------------------------------

    /** True in a JTA transaction, whose outcome is the sends'. */
    @Override
    public boolean getTransacted() throws JMSException {
        open("getTransacted");
        return mode == SESSION_TRANSACTED;
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        open("getAcknowledgeMode");
        return mode;
    }

    @Override
    public void commit() throws JMSException {
        end("commit");
    }

    @Override
    public void rollback() throws JMSException {
        end("rollback");
    }

    private void end(String operation) throws JMSException {
        open(operation);
        if (mode == SESSION_TRANSACTED) {
            throw new TransactionInProgressException(operation + ": the session's sends belong to the JTA transaction,"
                    + " which commits or rolls them back (end the bean method, or call UserTransaction." + operation
                    + ")");
        }
        throw new IllegalStateException(operation + ": the session is not transacted: each send committed at once");
    }

    /** Does nothing (this session receives nothing to redeliver), but in a transaction, where it is refused. */
    @Override
    public void recover() throws JMSException {
        open("recover");
        if (mode == SESSION_TRANSACTED) {
            throw new IllegalStateException("recover: the session is transacted (in a JTA transaction)");
        }
    }

    /** Closes its producers and gives its connection back to the pool; closing twice does nothing. */
    @Override
    public void close() {
        List<JmsMessageProducer> open;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            open = new ArrayList<>(producers);
            producers.clear();
        }
        open.forEach(JmsMessageProducer::closed);
        try {
            queues.close();
        } finally {
            onClose.accept(this);
        }
    }

    // ---- producers and destinations ---------------------------------------------------------------

    /** A producer for {@code destination}, or for any (null): see {@link JmsMessageProducer}. */
    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        open("createProducer");
        JmsMessageProducer producer = new JmsMessageProducer(this, destination);
        synchronized (this) {
            producers.add(producer);
        }
        return producer;
    }

    synchronized void forget(JmsMessageProducer producer) {
        producers.remove(producer);
    }

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        open("createQueue");
        try {
            return new JmsQueue(queueName);
        } catch (IllegalArgumentException e) {
            throw new InvalidDestinationException(e.getMessage());
        }
    }

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        open("createTopic");
        try {
            return new JmsTopic(topicName);
        } catch (IllegalArgumentException e) {
            throw new InvalidDestinationException(e.getMessage());
        }
    }

    // ---- browsers, and what the sender does not offer ------------------------------------------------

    @Override
    public MessageListener getMessageListener() throws JMSException {
        open("getMessageListener");
        return null;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        throw Refusals.unsupported("setMessageListener", Refusals.RECEIVE);
    }

    @Override
    public void run() {
        throw new JMSRuntimeException("Session.run is for application servers' own JMS providers, not an adapter's"
                + " sessions", Refusals.UNSUPPORTED);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        throw Refusals.unsupported("createConsumer", Refusals.RECEIVE);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector) throws JMSException {
        throw Refusals.unsupported("createConsumer", Refusals.RECEIVE);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        throw Refusals.unsupported("createConsumer", Refusals.RECEIVE);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        throw Refusals.unsupported("createSharedConsumer", Refusals.RECEIVE);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        throw Refusals.unsupported("createSharedConsumer", Refusals.RECEIVE);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        throw Refusals.unsupported("createDurableSubscriber", Refusals.RECEIVE);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        throw Refusals.unsupported("createDurableSubscriber", Refusals.RECEIVE);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        throw Refusals.unsupported("createDurableConsumer", Refusals.RECEIVE);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        throw Refusals.unsupported("createDurableConsumer", Refusals.RECEIVE);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        throw Refusals.unsupported("createSharedDurableConsumer", Refusals.RECEIVE);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        throw Refusals.unsupported("createSharedDurableConsumer", Refusals.RECEIVE);
    }

    /** A peek at the queue's messages that a consumer could take now: see {@link JmsQueueBrowser}. */
    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return createBrowser(queue, null);
    }

    /**
     * As {@link #createBrowser(Queue)}, showing only the messages {@code messageSelector} selects
     * (null or blank: all), evaluated as a consumer's.
     *
     * @throws jakarta.jms.InvalidSelectorException naming the bad token and its position
     */
    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        open("createBrowser");
        if (!(queues instanceof QueueBrowsing browsing)) {
            throw Refusals.unsupported("createBrowser", Refusals.BROWSE);
        }
        return JmsQueueBrowser.of(this, browsing, queue, messageSelector);
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        throw Refusals.unsupported("createTemporaryQueue", Refusals.TEMPORARY);
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        throw Refusals.unsupported("createTemporaryTopic", Refusals.TEMPORARY);
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        throw Refusals.unsupported("unsubscribe", Refusals.SUBSCRIPTION);
    }
}
