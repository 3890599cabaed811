package io.sqlqueue.jms;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.JmsHeaders;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Queue;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A read-only Jakarta Messaging view of a {@link QueueMessage}, as a {@code MessageListener} bean
 * receives it and a {@code QueueBrowser} shows it: the header fields and properties mapped as docs/semantics.md ("JMS message-driven
 * beans") says, the body in a {@link ReceivedTextMessage} or {@link ReceivedBytesMessage}. Every
 * setter and {@code clearBody}/{@code clearProperties} throws {@link MessageNotWriteableException}:
 * the row is what was sent, and a bean that wants another message sends one. {@code acknowledge()}
 * does nothing: the delivery's transaction (or lease) acknowledges. Not thread-safe beyond reading,
 * as a JMS message is used by one thread.
 */
public abstract class ReceivedMessage implements Message {

    static final String BODY_TYPE = JmsHeaders.BODY_TYPE;
    static final String TEXT = JmsHeaders.TEXT;
    static final String BYTES = JmsHeaders.BYTES;
    static final String CORRELATION_ID = JmsHeaders.CORRELATION_ID;
    static final String TYPE = JmsHeaders.TYPE;
    /** The property holding the attempt, and the one holding the ordering key (JMS-defined names). */
    static final String DELIVERY_COUNT = "JMSXDeliveryCount";
    static final String GROUP_ID = "JMSXGroupID";

    final QueueMessage message;
    /** The properties: the headers typed by JmsHeaders.decode, JMSXDeliveryCount an Integer, JMSXGroupID a String. */
    private final JmsProperties properties;
    /**
     * Why the headers' properties cannot be read (a malformed types header, written by hand), or
     * null. The message is delivered all the same: reading a property then throws, naming the
     * header, and the bean decides; if it throws, the message is retried and dead-lettered with
     * that reason, never lost.
     */
    private final String unreadable;

    ReceivedMessage(QueueMessage message) {
        this.message = message;
        Map<String, Object> values = new LinkedHashMap<>();
        String why = null;
        try {
            values.putAll(JmsHeaders.decode(message.headers()));
        } catch (IllegalArgumentException e) {
            why = e.getMessage();
        }
        values.remove(DELIVERY_COUNT); // the adapter's own, whatever a header says
        values.remove(GROUP_ID);
        values.put(DELIVERY_COUNT, message.attempt());
        if (message.orderingKey() != null) {
            values.put(GROUP_ID, message.orderingKey());
        }
        this.properties = new JmsProperties(values);
        this.unreadable = why;
    }

    /**
     * The view of {@code message}: a TextMessage when its sender said text, a BytesMessage when it
     * said bytes, and without the header (a row written by hand, a QueueConnection sender) a
     * TextMessage when the body is well-formed UTF-8, else a BytesMessage.
     */
    public static ReceivedMessage of(QueueMessage message) {
        String type = message.headers().get(BODY_TYPE);
        boolean text = TEXT.equals(type) || (!BYTES.equals(type) && isUtf8(message.body()));
        return text ? new ReceivedTextMessage(message) : new ReceivedBytesMessage(message);
    }

    private static boolean isUtf8(byte[] body) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    static MessageNotWriteableException notWriteable(String what) {
        return new MessageNotWriteableException("a received message is read-only: " + what
                + " is refused (send a new message instead)");
    }

    // ---- header fields -------------------------------------------------------------------------

    @Override
    public String getJMSMessageID() {
        return "ID:" + message.queue() + ":" + message.id();
    }

    @Override
    public long getJMSTimestamp() {
        return message.enqueuedAt().toEpochMilli();
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        String id = getJMSCorrelationID();
        return id == null ? null : id.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String getJMSCorrelationID() {
        return message.headers().get(CORRELATION_ID);
    }

    @Override
    public Destination getJMSReplyTo() {
        return null;
    }

    @Override
    public Destination getJMSDestination() {
        return new QueueName(message.queue());
    }

    @Override
    public int getJMSDeliveryMode() {
        return DeliveryMode.PERSISTENT; // a row in a table
    }

    @Override
    public boolean getJMSRedelivered() {
        return message.attempt() > 1;
    }

    @Override
    public String getJMSType() {
        return message.headers().get(TYPE);
    }

    /**
     * When its time to live runs out ({@link QueueMessage#expiresAt()}), in milliseconds, or 0: it
     * never expires. A message whose time to live ran out is never delivered.
     */
    @Override
    public long getJMSExpiration() {
        return message.expiresAt() == null ? 0 : message.expiresAt().toEpochMilli();
    }

    /**
     * {@code JMSTimestamp} plus the delivery delay its JMS sender set (the header
     * {@value JmsHeaders#DELIVERY_DELAY}); without the header, {@code JMSTimestamp}.
     *
     * @throws MessageFormatException when the header is not a number of milliseconds (written by hand)
     */
    @Override
    public long getJMSDeliveryTime() throws JMSException {
        String delay = message.headers().get(JmsHeaders.DELIVERY_DELAY);
        if (delay == null) {
            return getJMSTimestamp();
        }
        try {
            long millis = Long.parseLong(delay.trim());
            if (millis >= 0) {
                return getJMSTimestamp() + millis;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new MessageFormatException("header " + JmsHeaders.DELIVERY_DELAY + " must be a number of milliseconds"
                + " (0 or more), was \"" + delay + "\"");
    }

    /** The row's priority read as a JMS priority ({@link JmsHeaders#jmsPriority}): 0 is 4, clamped to 0 to 9. */
    @Override
    public int getJMSPriority() {
        return JmsHeaders.jmsPriority(message.priority());
    }

    @Override
    public void setJMSMessageID(String id) throws JMSException {
        throw notWriteable("setJMSMessageID");
    }

    @Override
    public void setJMSTimestamp(long timestamp) throws JMSException {
        throw notWriteable("setJMSTimestamp");
    }

    @Override
    public void setJMSCorrelationIDAsBytes(byte[] correlationID) throws JMSException {
        throw notWriteable("setJMSCorrelationIDAsBytes");
    }

    @Override
    public void setJMSCorrelationID(String correlationID) throws JMSException {
        throw notWriteable("setJMSCorrelationID");
    }

    @Override
    public void setJMSReplyTo(Destination replyTo) throws JMSException {
        throw notWriteable("setJMSReplyTo");
    }

    @Override
    public void setJMSDestination(Destination destination) throws JMSException {
        throw notWriteable("setJMSDestination");
    }

    @Override
    public void setJMSDeliveryMode(int deliveryMode) throws JMSException {
        throw notWriteable("setJMSDeliveryMode");
    }

    @Override
    public void setJMSRedelivered(boolean redelivered) throws JMSException {
        throw notWriteable("setJMSRedelivered");
    }

    @Override
    public void setJMSType(String type) throws JMSException {
        throw notWriteable("setJMSType");
    }

    @Override
    public void setJMSExpiration(long expiration) throws JMSException {
        throw notWriteable("setJMSExpiration");
    }

    @Override
    public void setJMSDeliveryTime(long deliveryTime) throws JMSException {
        throw notWriteable("setJMSDeliveryTime");
    }

    @Override
    public void setJMSPriority(int priority) throws JMSException {
        throw notWriteable("setJMSPriority");
    }

    // ---- properties: the conversions of the specification's table (3.5.4) ---------------------

    /**
     * The properties, unless the headers' properties cannot be read and {@code name} is one of them
     * (null: all of them); JMSXDeliveryCount and JMSXGroupID can always be read.
     */
    private JmsProperties properties(String name) throws MessageFormatException {
        if (unreadable != null && !DELIVERY_COUNT.equals(name) && !GROUP_ID.equals(name)) {
            throw new MessageFormatException("the properties of message " + getJMSMessageID() + " cannot be read: "
                    + unreadable + " (a row written by hand or by another program: correct the header "
                    + JmsHeaders.PROPERTY_TYPES + ", or remove it to read every property as a String)");
        }
        return properties;
    }

    @Override
    public boolean propertyExists(String name) throws JMSException {
        return properties(name).exists(name);
    }

    @Override
    public Enumeration<?> getPropertyNames() throws JMSException {
        return Collections.enumeration(properties(null).names());
    }

    @Override
    public Object getObjectProperty(String name) throws JMSException {
        return properties(name).get(name);
    }

    @Override
    public String getStringProperty(String name) throws JMSException {
        return properties(name).getString(name);
    }

    @Override
    public boolean getBooleanProperty(String name) throws JMSException {
        return properties(name).getBoolean(name);
    }

    @Override
    public byte getByteProperty(String name) throws JMSException {
        return properties(name).getByte(name);
    }

    @Override
    public short getShortProperty(String name) throws JMSException {
        return properties(name).getShort(name);
    }

    @Override
    public int getIntProperty(String name) throws JMSException {
        return properties(name).getInt(name);
    }

    @Override
    public long getLongProperty(String name) throws JMSException {
        return properties(name).getLong(name);
    }

    @Override
    public float getFloatProperty(String name) throws JMSException {
        return properties(name).getFloat(name);
    }

    @Override
    public double getDoubleProperty(String name) throws JMSException {
        return properties(name).getDouble(name);
    }

    @Override
    public void clearProperties() throws JMSException {
        throw notWriteable("clearProperties");
    }

    @Override
    public void setBooleanProperty(String name, boolean value) throws JMSException {
        throw notWriteable("setBooleanProperty");
    }

    @Override
    public void setByteProperty(String name, byte value) throws JMSException {
        throw notWriteable("setByteProperty");
    }

    @Override
    public void setShortProperty(String name, short value) throws JMSException {
        throw notWriteable("setShortProperty");
    }

    @Override
    public void setIntProperty(String name, int value) throws JMSException {
        throw notWriteable("setIntProperty");
    }

    @Override
    public void setLongProperty(String name, long value) throws JMSException {
        throw notWriteable("setLongProperty");
    }

    @Override
    public void setFloatProperty(String name, float value) throws JMSException {
        throw notWriteable("setFloatProperty");
    }

    @Override
    public void setDoubleProperty(String name, double value) throws JMSException {
        throw notWriteable("setDoubleProperty");
    }

    @Override
    public void setStringProperty(String name, String value) throws JMSException {
        throw notWriteable("setStringProperty");
    }

    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        throw notWriteable("setObjectProperty");
    }

    // ---- acknowledgement and body ----------------------------------------------------------------

    /** Does nothing: the container's transaction, or the lease of a bean without one, acknowledges. */
    @Override
    public void acknowledge() {
    }

    @Override
    public void clearBody() throws JMSException {
        throw notWriteable("clearBody");
    }

    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        Object body = body();
        if (body == null) {
            return null;
        }
        if (!c.isInstance(body)) {
            throw new MessageFormatException("the body is a " + body.getClass().getSimpleName()
                    + " and cannot be read as a " + c.getName());
        }
        return c.cast(body);
    }

    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) {
        Object body = body();
        return body == null || c.isInstance(body);
    }

    /** The body as getBody returns it (a copy where it is mutable), or null when there is none. */
    abstract Object body();

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + getJMSMessageID() + ", attempt " + message.attempt() + "]";
    }

    /** The queue a message came from, as its JMSDestination. */
    record QueueName(String name) implements Queue {
        @Override
        public String getQueueName() {
            return name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
