package io.sqlqueue.outbound.jms;

import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;

/**
 * The classic API's producer of a {@link JmsSession}: for one destination, or (made with null) for
 * the one each send names, as the specification says. Its settings ({@link SendOptions}) are
 * checked when set. Asynchronous sends are refused: Jakarta EE forbids them in beans and web
 * components, and a send here is an insert in the caller's transaction. Single-threaded.
 */
final class JmsMessageProducer implements MessageProducer {

    private final JmsSession session;
    private final Destination destination;
    private final SendOptions options = new SendOptions();
    private volatile boolean closed;

    JmsMessageProducer(JmsSession session, Destination destination) {
        this.session = session;
        this.destination = destination;
    }

    private void open(String operation) throws JMSException {
        if (closed) {
            throw new IllegalStateException(operation + ": the producer is closed");
        }
        session.open(operation);
    }

    /** Its session was closed. */
    void closed() {
        closed = true;
    }

    @Override
    public void close() {
        closed = true;
        session.forget(this);
    }

    @Override
    public Destination getDestination() throws JMSException {
        open("getDestination");
        return destination;
    }

    // ---- sending ----------------------------------------------------------------------------------

    @Override
    public void send(Message message) throws JMSException {
        send(message, options);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        send(message, with(deliveryMode, priority, timeToLive));
    }

    @Override
    public void send(Destination to, Message message) throws JMSException {
        send(to, message, options);
    }

    @Override
    public void send(Destination to, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send(to, message, with(deliveryMode, priority, timeToLive));
    }

    private void send(Message message, SendOptions with) throws JMSException {
        open("send");
        if (destination == null) {
            throw new UnsupportedOperationException("send(Message): this producer was made without a destination,"
                    + " so each send names one: send(Destination, Message)");
        }
        session.send(destination, message, with, JmsSender.Overrides.NONE);
    }

    private void send(Destination to, Message message, SendOptions with) throws JMSException {
        open("send");
        if (destination != null) {
            throw new UnsupportedOperationException("send(Destination, Message): this producer sends to "
                    + destination + " only: use send(Message), or a producer made without a destination");
        }
        if (to == null) {
            throw new InvalidDestinationException("send(Destination, Message): the destination must not be null");
        }
        session.send(to, message, with, JmsSender.Overrides.NONE);
    }

    private SendOptions with(int deliveryMode, int priority, long timeToLive) throws JMSException {
        return options.copy().deliveryMode(deliveryMode).priority(priority).timeToLive(timeToLive);
    }

    @Override
    public void send(Message message, CompletionListener completionListener) throws JMSException {
        throw Refusals.unsupported("send with a CompletionListener", Refusals.ASYNC);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive,
            CompletionListener completionListener) throws JMSException {
        throw Refusals.unsupported("send with a CompletionListener", Refusals.ASYNC);
    }

    @Override
    public void send(Destination to, Message message, CompletionListener completionListener) throws JMSException {
        throw Refusals.unsupported("send with a CompletionListener", Refusals.ASYNC);
    }

    @Override
    public void send(Destination to, Message message, int deliveryMode, int priority, long timeToLive,
            CompletionListener completionListener) throws JMSException {
        throw Refusals.unsupported("send with a CompletionListener", Refusals.ASYNC);
    }

    // ---- settings -----------------------------------------------------------------------------------

    /** A hint, which the adapter may ignore and does: every message has its id. */
    @Override
    public void setDisableMessageID(boolean value) throws JMSException {
        open("setDisableMessageID");
        options.disableMessageId(value);
    }

    @Override
    public boolean getDisableMessageID() throws JMSException {
        open("getDisableMessageID");
        return options.disableMessageId();
    }

    /** A hint, which the adapter may ignore and does: every message has its timestamp. */
    @Override
    public void setDisableMessageTimestamp(boolean value) throws JMSException {
        open("setDisableMessageTimestamp");
        options.disableTimestamp(value);
    }

    @Override
    public boolean getDisableMessageTimestamp() throws JMSException {
        open("getDisableMessageTimestamp");
        return options.disableTimestamp();
    }

    @Override
    public void setDeliveryMode(int deliveryMode) throws JMSException {
        open("setDeliveryMode");
        options.deliveryMode(deliveryMode);
    }

    @Override
    public int getDeliveryMode() throws JMSException {
        open("getDeliveryMode");
        return options.deliveryMode();
    }

    @Override
    public void setPriority(int priority) throws JMSException {
        open("setPriority");
        options.priority(priority);
    }

    @Override
    public int getPriority() throws JMSException {
        open("getPriority");
        return options.priority();
    }

    @Override
    public void setTimeToLive(long timeToLive) throws JMSException {
        open("setTimeToLive");
        options.timeToLive(timeToLive);
    }

    @Override
    public long getTimeToLive() throws JMSException {
        open("getTimeToLive");
        return options.timeToLive();
    }

    @Override
    public void setDeliveryDelay(long deliveryDelay) throws JMSException {
        open("setDeliveryDelay");
        options.deliveryDelay(deliveryDelay);
    }

    @Override
    public long getDeliveryDelay() throws JMSException {
        open("getDeliveryDelay");
        return options.deliveryDelay();
    }
}
