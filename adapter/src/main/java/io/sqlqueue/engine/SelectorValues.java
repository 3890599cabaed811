package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueMessage;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The values a {@link MessageSelector}'s identifiers take for one message: the JMS header fields
 * a selector may name, from what the row has, and its properties, from its headers typed as
 * {@link JmsHeaders} encodes them.
 *
 * <table>
 * <caption>Identifiers</caption>
 * <tr><td>{@code JMSDeliveryMode}</td><td>{@code 'PERSISTENT'}: every message is a row</td></tr>
 * <tr><td>{@code JMSPriority}</td><td>the row's priority as the header field reads it ({@link JmsHeaders#jmsPriority})</td></tr>
 * <tr><td>{@code JMSMessageID}</td><td>{@code ID:<queue>:<id>}; NULL at publish (each copy gets its own id)</td></tr>
 * <tr><td>{@code JMSTimestamp}</td><td>{@code enqueued_at} in milliseconds; at publish the publishing server's clock</td></tr>
 * <tr><td>{@code JMSCorrelationID}, {@code JMSType}</td><td>the reserved headers of those names, or NULL</td></tr>
 * <tr><td>{@code JMSXDeliveryCount}</td><td>the delivery it would be: one more than the attempts counted (1 at publish)</td></tr>
 * <tr><td>{@code JMSXGroupID}</td><td>the ordering key, or NULL</td></tr>
 * <tr><td>any other name</td><td>the header of that name as its JMS property, or NULL</td></tr>
 * </table>
 *
 * A header is a String property unless {@value JmsHeaders#PROPERTY_TYPES} gives it another type;
 * should that header be malformed (a row written by hand), every header reads as a String, as a
 * {@code QueueListener} sees it, rather than the message matching nothing anywhere. A lookup is
 * for one evaluation on one thread (it decodes the headers once, on the first property named).
 */
public final class SelectorValues implements Function<String, Object> {

    /** The value of {@code JMSDeliveryMode}. */
    public static final String PERSISTENT = "PERSISTENT";

    private final String messageId;
    private final int priority;
    private final Long timestamp;
    private final int deliveryCount;
    private final String orderingKey;
    private final Map<String, String> headers;
    private Map<String, ?> properties;

    private SelectorValues(String messageId, int priority, Long timestamp, int deliveryCount, String orderingKey,
            Map<String, String> headers) {
        this.messageId = messageId;
        this.priority = priority;
        this.timestamp = timestamp;
        this.deliveryCount = deliveryCount;
        this.orderingKey = orderingKey;
        this.headers = headers;
    }

    /**
     * A queued message's values.
     *
     * @param queue         the queue's name as configured ({@code orders}, {@code sales.orders})
     * @param deliveryCount the delivery this would be (1 for a message never attempted)
     */
    public static SelectorValues ofQueued(String queue, long id, int priority, Instant enqueuedAt, int deliveryCount,
            String orderingKey, Map<String, String> headers) {
        return new SelectorValues("ID:" + queue + ":" + id, priority, enqueuedAt == null ? null : enqueuedAt.toEpochMilli(),
                deliveryCount, orderingKey, headers);
    }

    /** A message as a delivery of it would be: its attempt is the delivery count. */
    public static SelectorValues ofDelivered(QueueMessage message) {
        return ofQueued(message.queue(), message.id(), message.priority(), message.enqueuedAt(), message.attempt(),
                message.orderingKey(), message.headers());
    }

    /** A message being published to a topic, at {@code publishedAt}. */
    public static SelectorValues ofPublished(OutgoingMessage message, Instant publishedAt) {
        return new SelectorValues(null, message.priority(), publishedAt.toEpochMilli(), 1, message.orderingKey(),
                message.headers());
    }

    @Override
    public Object apply(String identifier) {
        return switch (identifier) {
            case "JMSDeliveryMode" -> PERSISTENT;
            case "JMSPriority" -> JmsHeaders.jmsPriority(priority);
            case "JMSMessageID" -> messageId;
            case "JMSTimestamp" -> timestamp;
            case JmsHeaders.CORRELATION_ID, JmsHeaders.TYPE -> headers.get(identifier);
            case "JMSXDeliveryCount" -> deliveryCount;
            case "JMSXGroupID" -> orderingKey;
            default -> properties().get(identifier);
        };
    }

    private Map<String, ?> properties() {
        if (properties == null) {
            try {
                properties = JmsHeaders.decode(headers);
            } catch (IllegalArgumentException malformedTypes) {
                Map<String, String> strings = new HashMap<>(headers);
                strings.keySet().removeAll(JmsHeaders.RESERVED);
                properties = strings;
            }
        }
        return properties;
    }
}
