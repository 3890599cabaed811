package io.sqlqueue.outbound.jms;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueException;
import io.sqlqueue.engine.JmsHeaders;
import io.sqlqueue.jms.JmsProperties;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sends one JMS message through a {@link QueueConnection}, so in its transaction: maps the message
 * and the producer's options to an {@link OutgoingMessage} as docs/semantics.md ("The JMS sender")
 * says, sends it to a queue or publishes it to a topic, then sets the header fields a send sets.
 * Messages of other providers are sent through their interfaces (a bean may send on the message it
 * received). Stateless.
 */
final class JmsSender {

    /** What a JMSProducer adds to each message it sends: its properties, correlation id and type (null: the message's). */
    record Overrides(Map<String, Object> properties, String correlationId, String type) {
        static final Overrides NONE = new Overrides(Map.of(), null, null);
    }

    private JmsSender() {
    }

    /**
     * Sends {@code message} to {@code destination}.
     *
     * @throws InvalidDestinationException for a null destination, one that is neither a Queue nor a
     *         Topic, or a name that is not valid
     * @throws MessageFormatException for a message that cannot be sent as it is (a property, a
     *         JMSXGroupID that is no ordering key)
     * @throws JMSException for a MapMessage, ObjectMessage or StreamMessage (named), a time to live
     *         not longer than the delivery delay, or a database failure (the cause linked)
     */
    static void send(QueueConnection queues, Destination destination, Message message, SendOptions options,
            Overrides overrides) throws JMSException {
        if (message == null) {
            throw new MessageFormatException("the message to send must not be null");
        }
        long now = System.currentTimeMillis();
        OutgoingMessage row = row(message, options, overrides);
        String messageId = null;
        try {
            if (destination instanceof Queue queue) {
                String name = queue.getQueueName();
                messageId = "ID:" + name + ":" + queues.send(name, row); // as a MessageListener bean reads it
            } else if (destination instanceof Topic topic) {
                queues.publish(topic.getTopicName(), row); // a copy per subscription, each its own id: none to give
            } else {
                throw new InvalidDestinationException("a destination must be a Queue or a Topic, was "
                        + (destination == null ? "null" : destination.getClass().getName()));
            }
        } catch (IllegalArgumentException e) { // the message is built: only the name can be wrong
            throw new InvalidDestinationException(e.getMessage());
        } catch (QueueException e) {
            JMSException failed = new JMSException(e.getMessage());
            failed.setLinkedException(e);
            failed.initCause(e);
            throw failed;
        }
        stamp(message, destination, options, messageId, now);
    }

    /** The row of {@code message}: body, body type, headers, priority, delay, time to live, ordering key. */
    static OutgoingMessage row(Message message, SendOptions options, Overrides overrides) throws JMSException {
        if (message.getJMSReplyTo() != null) {
            throw Refusals.unsupported("JMSReplyTo", Refusals.REPLY_TO);
        }
        Map<String, Object> properties = new LinkedHashMap<>(properties(message));
        properties.putAll(overrides.properties());
        Object group = properties.remove(JmsProperties.GROUP_ID);
        Map<String, String> headers;
        try {
            headers = new LinkedHashMap<>(JmsHeaders.encode(properties));
        } catch (IllegalArgumentException e) {
            throw new MessageFormatException(e.getMessage());
        }
        headers.put(JmsHeaders.BODY_TYPE, bodyType(message));
        String correlationId = overrides.correlationId() != null ? overrides.correlationId()
                : message.getJMSCorrelationID();
        if (correlationId != null) {
            headers.put(JmsHeaders.CORRELATION_ID, correlationId);
        }
        String type = overrides.type() != null ? overrides.type() : message.getJMSType();
        if (type != null) {
            headers.put(JmsHeaders.TYPE, type);
        }
        OutgoingMessage.Builder b = OutgoingMessage.bytes(body(message)).priority(JmsHeaders.rowPriority(options.priority()));
        if (options.deliveryDelay() > 0) {
            b.delay(Duration.ofMillis(options.deliveryDelay()));
            headers.put(JmsHeaders.DELIVERY_DELAY, Long.toString(options.deliveryDelay()));
        }
        if (group != null) {
            try {
                b.orderingKey(group.toString());
            } catch (IllegalArgumentException e) {
                throw new MessageFormatException(JmsProperties.GROUP_ID + " is the ordering key: " + e.getMessage());
            }
        }
        b.headers(headers);
        try {
            if (options.timeToLive() > 0) {
                b.timeToLive(Duration.ofMillis(options.timeToLive()));
            }
            return b.build();
        } catch (IllegalArgumentException e) { // a time to live not longer than the delay
            throw new JMSException("cannot send: " + e.getMessage().replace("timeToLive", "the time to live")
                    .replace("the delay", "the delivery delay"));
        }
    }

    /**
     * The message's properties: its own, or a foreign message's but for the JMSX properties a
     * provider sets (a received message's JMSXDeliveryCount is not the new message's) and the
     * {@code JMS_} ones of its vendor.
     */
    private static Map<String, Object> properties(Message message) throws JMSException {
        if (message instanceof OutgoingJmsMessage own) {
            return own.properties.asMap();
        }
        Map<String, Object> found = new LinkedHashMap<>();
        for (Object o : Collections.list(message.getPropertyNames())) {
            String name = (String) o;
            if (!name.startsWith("JMS") || name.equals(JmsProperties.GROUP_ID) || name.equals(JmsProperties.GROUP_SEQ)) {
                found.put(name, message.getObjectProperty(name));
            }
        }
        return found;
    }

    private static String bodyType(Message message) {
        if (message instanceof OutgoingJmsMessage own) {
            return own.bodyType();
        }
        return message instanceof TextMessage ? JmsHeaders.TEXT : JmsHeaders.BYTES;
    }

    /** The body's bytes: text as UTF-8 (null as empty), bytes as they are, none as none. */
    private static byte[] body(Message message) throws JMSException {
        if (message instanceof OutgoingJmsMessage own) {
            return own.bodyBytes();
        }
        if (message instanceof TextMessage text) {
            return text.getText() == null ? new byte[0] : text.getText().getBytes(StandardCharsets.UTF_8);
        }
        if (message instanceof BytesMessage bytes) {
            bytes.reset(); // read-only, from the start: the specification's way to read all of a foreign body
            byte[] body = new byte[(int) bytes.getBodyLength()];
            if (body.length > 0) {
                bytes.readBytes(body);
            }
            return body;
        }
        for (Class<?> other : new Class<?>[] {MapMessage.class, ObjectMessage.class, StreamMessage.class}) {
            if (other.isInstance(message)) {
                throw Refusals.unsupported("sending a " + other.getSimpleName(), Refusals.OTHER_BODIES);
            }
        }
        return new byte[0]; // a Message without a body
    }

    /**
     * Sets the header fields a send sets (the sender's clock: the row's enqueued_at, which a
     * receiver reads as JMSTimestamp, is the database's). A received message sent on is read-only
     * here: it keeps the fields it came with.
     */
    private static void stamp(Message m, Destination destination, SendOptions options, String messageId, long now)
            throws JMSException {
        try {
            m.setJMSDestination(destination);
            m.setJMSDeliveryMode(options.deliveryMode());
            m.setJMSPriority(options.priority());
            m.setJMSTimestamp(now);
            m.setJMSDeliveryTime(now + options.deliveryDelay());
            m.setJMSExpiration(options.timeToLive() == 0 ? 0 : now + options.timeToLive());
            m.setJMSMessageID(messageId);
        } catch (MessageNotWriteableException e) {
            // the forwarded message's own fields stay: the send itself succeeded
        }
    }
}
