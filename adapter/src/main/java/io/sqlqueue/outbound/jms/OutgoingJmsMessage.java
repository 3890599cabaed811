package io.sqlqueue.outbound.jms;

import io.sqlqueue.engine.JmsHeaders;
import io.sqlqueue.jms.JmsProperties;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;

/**
 * A message made by the JMS sender ({@code createMessage}): header fields, properties and no body,
 * sent as an empty {@code BytesMessage}. {@link OutgoingTextMessage} and
 * {@link OutgoingBytesMessage} add theirs. Writable, as the specification wants of a message its
 * client made, except for {@code JMSReplyTo} and a correlation id of bytes, which the adapter does
 * not carry (refused when set). A send sets the header fields a send sets. Not thread-safe, as a
 * JMS message is used by one thread.
 */
class OutgoingJmsMessage implements Message {

    final JmsProperties properties = new JmsProperties();
    private String messageId;
    private long timestamp;
    private String correlationId;
    private Destination destination;
    private int deliveryMode = DEFAULT_DELIVERY_MODE;
    private boolean redelivered;
    private String type;
    private long expiration;
    private long deliveryTime;
    private int priority = DEFAULT_PRIORITY;

    /** The body as sent: none, so no bytes. */
    byte[] bodyBytes() {
        return new byte[0];
    }

    /** The body type header's value ({@link JmsHeaders#BODY_TYPE}). */
    String bodyType() {
        return JmsHeaders.BYTES;
    }

    // ---- header fields -------------------------------------------------------------------------

    @Override
    public String getJMSMessageID() {
        return messageId;
    }

    @Override
    public void setJMSMessageID(String id) {
        this.messageId = id;
    }

    @Override
    public long getJMSTimestamp() {
        return timestamp;
    }

    @Override
    public void setJMSTimestamp(long timestamp) {
        this.timestamp = timestamp;
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void setJMSCorrelationIDAsBytes(byte[] correlationID) throws JMSException {
        throw Refusals.unsupported("setJMSCorrelationIDAsBytes", Refusals.CORRELATION_BYTES);
    }

    @Override
    public void setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
    }

    @Override
    public String getJMSCorrelationID() {
        return correlationId;
    }

    /** Null: a reply-to destination is not carried. */
    @Override
    public Destination getJMSReplyTo() {
        return null;
    }

    /** Null is accepted (none); a destination is refused, as it would not reach the receiver. */
    @Override
    public void setJMSReplyTo(Destination replyTo) throws JMSException {
        if (replyTo != null) {
            throw Refusals.unsupported("setJMSReplyTo", Refusals.REPLY_TO);
        }
    }

    @Override
    public Destination getJMSDestination() {
        return destination;
    }

    @Override
    public void setJMSDestination(Destination destination) {
        this.destination = destination;
    }

    @Override
    public int getJMSDeliveryMode() {
        return deliveryMode;
    }

    @Override
    public void setJMSDeliveryMode(int deliveryMode) {
        this.deliveryMode = deliveryMode;
    }

    @Override
    public boolean getJMSRedelivered() {
        return redelivered;
    }

    @Override
    public void setJMSRedelivered(boolean redelivered) {
        this.redelivered = redelivered;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public void setJMSType(String type) {
        this.type = type;
    }

    @Override
    public long getJMSExpiration() {
        return expiration;
    }

    @Override
    public void setJMSExpiration(long expiration) {
        this.expiration = expiration;
    }

    @Override
    public long getJMSDeliveryTime() {
        return deliveryTime;
    }

    @Override
    public void setJMSDeliveryTime(long deliveryTime) {
        this.deliveryTime = deliveryTime;
    }

    @Override
    public int getJMSPriority() {
        return priority;
    }

    @Override
    public void setJMSPriority(int priority) {
        this.priority = priority;
    }

    // ---- properties (JmsProperties: the specification's names, types and conversions) ----------

    @Override
    public void clearProperties() {
        properties.clear();
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.exists(name);
    }

    @Override
    public boolean getBooleanProperty(String name) throws JMSException {
        return properties.getBoolean(name);
    }

    @Override
    public byte getByteProperty(String name) throws JMSException {
        return properties.getByte(name);
    }

    @Override
    public short getShortProperty(String name) throws JMSException {
        return properties.getShort(name);
    }

    @Override
    public int getIntProperty(String name) throws JMSException {
        return properties.getInt(name);
    }

    @Override
    public long getLongProperty(String name) throws JMSException {
        return properties.getLong(name);
    }

    @Override
    public float getFloatProperty(String name) throws JMSException {
        return properties.getFloat(name);
    }

    @Override
    public double getDoubleProperty(String name) throws JMSException {
        return properties.getDouble(name);
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
    public Enumeration<?> getPropertyNames() {
        return Collections.enumeration(properties.names());
    }

    @Override
    public void setBooleanProperty(String name, boolean value) throws JMSException {
        properties.set(name, value);
    }

    @Override
    public void setByteProperty(String name, byte value) throws JMSException {
        properties.set(name, value);
    }

    @Override
    public void setShortProperty(String name, short value) throws JMSException {
        properties.set(name, value);
    }

    @Override
    public void setIntProperty(String name, int value) throws JMSException {
        properties.set(name, value);
    }

    @Override
    public void setLongProperty(String name, long value) throws JMSException {
        properties.set(name, value);
    }

    @Override
    public void setFloatProperty(String name, float value) throws JMSException {
        properties.set(name, value);
    }

    @Override
    public void setDoubleProperty(String name, double value) throws JMSException {
        properties.set(name, value);
    }

    @Override
    public void setStringProperty(String name, String value) throws JMSException {
        properties.set(name, value);
    }

    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        properties.set(name, value);
    }

    // ---- acknowledgement and body ----------------------------------------------------------------

    /** Does nothing: a message the sender made was never received. */
    @Override
    public void acknowledge() {
    }

    @Override
    public void clearBody() throws JMSException {
    }

    /** The body as getBody returns it (a copy where it is mutable), or null when there is none. */
    Object body() {
        return null;
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

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + (messageId == null ? "not sent" : messageId) + "]";
    }
}
