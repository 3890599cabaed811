package io.sqlqueue.outbound.jms;

import io.sqlqueue.jms.JmsProperties;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The simplified API's producer of a {@link JmsContextImpl}: its settings ({@link SendOptions},
 * checked when set), and its properties, correlation id and type, which every message it sends
 * gets (over the message's own). Sends a message, a String (a TextMessage) or a byte array (a
 * BytesMessage); a Map and a Serializable body are refused, as are asynchronous sends and a
 * reply-to destination ({@link Refusals}). Single-threaded.
 */
final class JmsProducerImpl implements JMSProducer {

    private final JmsSession session;
    private final SendOptions options = new SendOptions();
    private final JmsProperties properties = new JmsProperties();
    private String correlationId;
    private String type;

    JmsProducerImpl(JmsSession session) {
        this.session = session;
    }

    // ---- sending ----------------------------------------------------------------------------------

    @Override
    public JMSProducer send(Destination destination, Message message) {
        Refusals.unchecked(() -> {
            if (destination == null) {
                throw new InvalidDestinationRuntimeException("send: the destination must not be null");
            }
            session.send(destination, message, options,
                    new JmsSender.Overrides(new LinkedHashMap<>(properties.asMap()), correlationId, type));
            return null;
        });
        return this;
    }

    /** Sends a TextMessage of {@code body} (null: no text). */
    @Override
    public JMSProducer send(Destination destination, String body) {
        return send(destination, new OutgoingTextMessage(body));
    }

    /** Sends a BytesMessage of {@code body} (null: no bytes). */
    @Override
    public JMSProducer send(Destination destination, byte[] body) {
        return send(destination, new OutgoingBytesMessage(body));
    }

    @Override
    public JMSProducer send(Destination destination, Map<String, Object> body) {
        throw Refusals.unsupportedRuntime("sending a Map (a MapMessage)", Refusals.OTHER_BODIES);
    }

    @Override
    public JMSProducer send(Destination destination, Serializable body) {
        throw Refusals.unsupportedRuntime("sending a Serializable (an ObjectMessage)", Refusals.OTHER_BODIES);
    }

    /** Null is accepted (synchronous sends); a listener is refused. */
    @Override
    public JMSProducer setAsync(CompletionListener completionListener) {
        if (completionListener != null) {
            throw Refusals.unsupportedRuntime("setAsync", Refusals.ASYNC);
        }
        return this;
    }

    @Override
    public CompletionListener getAsync() {
        return null;
    }

    // ---- settings -----------------------------------------------------------------------------------

    /** A hint, which the adapter may ignore and does: every message has its id. */
    @Override
    public JMSProducer setDisableMessageID(boolean value) {
        options.disableMessageId(value);
        return this;
    }

    @Override
    public boolean getDisableMessageID() {
        return options.disableMessageId();
    }

    /** A hint, which the adapter may ignore and does: every message has its timestamp. */
    @Override
    public JMSProducer setDisableMessageTimestamp(boolean value) {
        options.disableTimestamp(value);
        return this;
    }

    @Override
    public boolean getDisableMessageTimestamp() {
        return options.disableTimestamp();
    }

    @Override
    public JMSProducer setDeliveryMode(int deliveryMode) {
        return set(() -> options.deliveryMode(deliveryMode));
    }

    @Override
    public int getDeliveryMode() {
        return options.deliveryMode();
    }

    @Override
    public JMSProducer setPriority(int priority) {
        return set(() -> options.priority(priority));
    }

    @Override
    public int getPriority() {
        return options.priority();
    }

    @Override
    public JMSProducer setTimeToLive(long timeToLive) {
        return set(() -> options.timeToLive(timeToLive));
    }

    @Override
    public long getTimeToLive() {
        return options.timeToLive();
    }

    @Override
    public JMSProducer setDeliveryDelay(long deliveryDelay) {
        return set(() -> options.deliveryDelay(deliveryDelay));
    }

    @Override
    public long getDeliveryDelay() {
        return options.deliveryDelay();
    }

    private JMSProducer set(Refusals.Call<?> setting) {
        Refusals.unchecked(setting);
        return this;
    }

    // ---- header fields ------------------------------------------------------------------------------

    @Override
    public JMSProducer setJMSCorrelationIDAsBytes(byte[] correlationID) {
        throw Refusals.unsupportedRuntime("setJMSCorrelationIDAsBytes", Refusals.CORRELATION_BYTES);
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public JMSProducer setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
        return this;
    }

    @Override
    public String getJMSCorrelationID() {
        return correlationId;
    }

    @Override
    public JMSProducer setJMSType(String type) {
        this.type = type;
        return this;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    /** Null is accepted (none); a destination is refused, as it would not reach the receiver. */
    @Override
    public JMSProducer setJMSReplyTo(Destination replyTo) {
        if (replyTo != null) {
            throw Refusals.unsupportedRuntime("setJMSReplyTo", Refusals.REPLY_TO);
        }
        return this;
    }

    @Override
    public Destination getJMSReplyTo() {
        return null;
    }

    // ---- properties (JmsProperties: the specification's names, types and conversions) ----------

    private JMSProducer property(String name, Object value) {
        return set(() -> {
            properties.set(name, value);
            return null;
        });
    }

    @Override
    public JMSProducer setProperty(String name, boolean value) {
        return property(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, byte value) {
        return property(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, short value) {
        return property(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, int value) {
        return property(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, long value) {
        return property(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, float value) {
        return property(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, double value) {
        return property(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, String value) {
        return property(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, Object value) {
        return property(name, value);
    }

    @Override
    public JMSProducer clearProperties() {
        properties.clear();
        return this;
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.exists(name);
    }

    @Override
    public boolean getBooleanProperty(String name) {
        return Refusals.unchecked(() -> properties.getBoolean(name));
    }

    @Override
    public byte getByteProperty(String name) {
        return Refusals.unchecked(() -> properties.getByte(name));
    }

    @Override
    public short getShortProperty(String name) {
        return Refusals.unchecked(() -> properties.getShort(name));
    }

    @Override
    public int getIntProperty(String name) {
        return Refusals.unchecked(() -> properties.getInt(name));
    }

    @Override
    public long getLongProperty(String name) {
        return Refusals.unchecked(() -> properties.getLong(name));
    }

    @Override
    public float getFloatProperty(String name) {
        return Refusals.unchecked(() -> properties.getFloat(name));
    }

    @Override
    public double getDoubleProperty(String name) {
        return Refusals.unchecked(() -> properties.getDouble(name));
    }

    @Override
    public String getStringProperty(String name) {
        return properties.getString(name);
    }

    @Override
    public Object getObjectProperty(String name) {
        return properties.get(name);
    }

    @Override
    public Set<String> getPropertyNames() {
        return new LinkedHashSet<>(properties.names());
    }
}
