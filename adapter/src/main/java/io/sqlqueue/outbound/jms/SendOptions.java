package io.sqlqueue.outbound.jms;

import io.sqlqueue.api.OutgoingMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

/**
 * How a producer sends: delivery mode, priority, time to live and delivery delay (each checked when
 * set, so a bad value fails naming it before anything is sent), and the hints to leave out the
 * message id and timestamp. The producers' defaults are the specification's. Not thread-safe, as a
 * producer is used by one thread.
 */
final class SendOptions {

    /** The longest time to live and delivery delay: {@link OutgoingMessage#MAX_DELAY}. */
    static final long MAX_MILLIS = OutgoingMessage.MAX_DELAY.toMillis();

    private int deliveryMode = Message.DEFAULT_DELIVERY_MODE;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;
    private boolean disableMessageId;
    private boolean disableTimestamp;

    SendOptions copy() {
        SendOptions c = new SendOptions();
        c.deliveryMode = deliveryMode;
        c.priority = priority;
        c.timeToLive = timeToLive;
        c.deliveryDelay = deliveryDelay;
        c.disableMessageId = disableMessageId;
        c.disableTimestamp = disableTimestamp;
        return c;
    }

    int deliveryMode() {
        return deliveryMode;
    }

    /**
     * PERSISTENT or NON_PERSISTENT. Every message is a row, so a NON_PERSISTENT one is kept as a
     * persistent one is: delivered once, which its at-most-once promise allows.
     */
    SendOptions deliveryMode(int mode) throws JMSException {
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("delivery mode must be DeliveryMode.PERSISTENT (2) or NON_PERSISTENT (1), was "
                    + mode);
        }
        this.deliveryMode = mode;
        return this;
    }

    int priority() {
        return priority;
    }

    SendOptions priority(int priority) throws JMSException {
        if (priority < 0 || priority > 9) {
            throw new JMSException("priority must be 0 to 9, was " + priority);
        }
        this.priority = priority;
        return this;
    }

    long timeToLive() {
        return timeToLive;
    }

    /** Milliseconds, 0 for never; it must be longer than the delivery delay, which the send checks. */
    SendOptions timeToLive(long millis) throws JMSException {
        if (millis < 0 || millis > MAX_MILLIS) {
            throw new JMSException("time to live must be 0 (never expires) to " + MAX_MILLIS + " ms, was " + millis);
        }
        this.timeToLive = millis;
        return this;
    }

    long deliveryDelay() {
        return deliveryDelay;
    }

    SendOptions deliveryDelay(long millis) throws JMSException {
        if (millis < 0 || millis > MAX_MILLIS) {
            throw new JMSException("delivery delay must be 0 to " + MAX_MILLIS + " ms, was " + millis);
        }
        this.deliveryDelay = millis;
        return this;
    }

    boolean disableMessageId() {
        return disableMessageId;
    }

    void disableMessageId(boolean disable) {
        this.disableMessageId = disable;
    }

    boolean disableTimestamp() {
        return disableTimestamp;
    }

    void disableTimestamp(boolean disable) {
        this.disableTimestamp = disable;
    }
}
