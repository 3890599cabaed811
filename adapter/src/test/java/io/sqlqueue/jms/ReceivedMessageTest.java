package io.sqlqueue.jms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.JmsHeaders;
import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The read-only JMS view of a QueueMessage: header fields, properties and their conversions, bodies. */
class ReceivedMessageTest {

    private static final Instant SENT = Instant.parse("2026-11-27T10:15:30.123Z");

    private static QueueMessage row(byte[] body, Map<String, String> headers, int attempt, String orderingKey) {
        return new QueueMessage(42, "sales.orders", body, headers, SENT, attempt, orderingKey);
    }

    private static Message text(Map<String, String> headers) {
        return ReceivedMessage.of(row("héllo".getBytes(StandardCharsets.UTF_8), headers, 1, null));
    }

    @Test
    void theHeaderFieldsComeFromTheRowAndItsReservedHeaders() throws Exception {
        Message m = ReceivedMessage.of(row("x".getBytes(StandardCharsets.UTF_8),
                Map.of("JMSCorrelationID", "order-7", "JMSType", "order-created"), 3, "account-9"));
        assertEquals("ID:sales.orders:42", m.getJMSMessageID());
        assertEquals(SENT.toEpochMilli(), m.getJMSTimestamp());
        assertEquals(SENT.toEpochMilli(), m.getJMSDeliveryTime());
        assertEquals(0, m.getJMSExpiration(), "never");
        assertEquals(4, m.getJMSPriority(), "the JMS default");
        assertEquals(DeliveryMode.PERSISTENT, m.getJMSDeliveryMode());
        assertEquals("order-7", m.getJMSCorrelationID());
        assertArrayEquals("order-7".getBytes(StandardCharsets.UTF_8), m.getJMSCorrelationIDAsBytes());
        assertEquals("order-created", m.getJMSType());
        assertTrue(m.getJMSRedelivered(), "the third attempt");
        assertEquals(3, m.getIntProperty("JMSXDeliveryCount"));
        assertEquals(3, m.getObjectProperty("JMSXDeliveryCount"));
        assertEquals(3L, m.getLongProperty("JMSXDeliveryCount"));
        assertEquals("3", m.getStringProperty("JMSXDeliveryCount"));
        assertEquals("account-9", m.getStringProperty("JMSXGroupID"));
        assertEquals("sales.orders", ((Queue) m.getJMSDestination()).getQueueName());
        assertNull(m.getJMSReplyTo());
        assertFalse(m.propertyExists("JMSType"), "the reserved headers are header fields, not properties");
        assertFalse(m.propertyExists("JMSCorrelationID"));

        Message first = text(Map.of());
        assertFalse(first.getJMSRedelivered());
        assertEquals(1, first.getIntProperty("JMSXDeliveryCount"));
        assertNull(first.getJMSCorrelationID());
        assertNull(first.getJMSCorrelationIDAsBytes());
        assertNull(first.getJMSType());
        assertFalse(first.propertyExists("JMSXGroupID"), "no ordering key");
    }

    @Test
    void theOtherHeadersAreStringPropertiesReadThroughTheSpecificationsConversions() throws Exception {
        Message m = text(Map.of("count", "17", "big", "9000000000", "ratio", "0.5", "flag", "TRUE", "name", "eu",
                "sqlqueue.jms.bodyType", "text"));
        List<Object> names = new ArrayList<>(Collections.list(m.getPropertyNames()));
        names.sort(null);
        assertEquals(List.of("JMSXDeliveryCount", "big", "count", "flag", "name", "ratio"), names,
                "the body type is the adapter's, not a property");
        assertEquals("17", m.getObjectProperty("count"));
        assertEquals(17, m.getIntProperty("count"));
        assertEquals((byte) 17, m.getByteProperty("count"));
        assertEquals((short) 17, m.getShortProperty("count"));
        assertEquals(17L, m.getLongProperty("count"));
        assertEquals(9_000_000_000L, m.getLongProperty("big"));
        assertEquals(0.5f, m.getFloatProperty("ratio"));
        assertEquals(0.5d, m.getDoubleProperty("ratio"));
        assertTrue(m.getBooleanProperty("flag"));
        assertFalse(m.getBooleanProperty("name"), "Boolean.valueOf of anything but true");
        assertFalse(m.getBooleanProperty("missing"), "a missing property reads false");
        assertNull(m.getStringProperty("missing"));
        assertNull(m.getObjectProperty("missing"));
        assertTrue(m.propertyExists("name"));
        assertFalse(m.propertyExists("missing"));
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("name"));
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("big"));
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("missing"), "as Integer.valueOf(null)");
        assertThrows(NumberFormatException.class, () -> m.getDoubleProperty("missing"));
        for (Executable intAsOther : List.<Executable>of(() -> m.getBooleanProperty("JMSXDeliveryCount"),
                () -> m.getByteProperty("JMSXDeliveryCount"), () -> m.getShortProperty("JMSXDeliveryCount"),
                () -> m.getFloatProperty("JMSXDeliveryCount"), () -> m.getDoubleProperty("JMSXDeliveryCount"))) {
            assertThrows(MessageFormatException.class, intAsOther, "an int reads only as int, long or String");
        }
    }

    @Test
    void typedPropertiesFromTheTypesHeaderReadThroughTheConversionTable() throws Exception {
        Map<String, Object> sent = new LinkedHashMap<>();
        sent.put("quantity", 5);
        sent.put("small", (byte) -7);
        sent.put("mid", (short) 300);
        sent.put("big", 9_000_000_000L);
        sent.put("ratio", 0.25f);
        sent.put("price", 19.99);
        sent.put("urgent", true);
        sent.put("region", "eu");
        sent.put("count", "17");
        Message m = text(JmsHeaders.encode(sent));

        assertEquals(5, m.getObjectProperty("quantity"), "the sender's type comes back");
        assertEquals(Integer.class, m.getObjectProperty("quantity").getClass());
        assertEquals(Float.class, m.getObjectProperty("ratio").getClass());
        assertEquals(Boolean.TRUE, m.getObjectProperty("urgent"));
        // an int reads as int, long and String, nothing else
        assertEquals(5, m.getIntProperty("quantity"));
        assertEquals(5L, m.getLongProperty("quantity"));
        assertEquals("5", m.getStringProperty("quantity"));
        for (Executable intAsOther : List.<Executable>of(() -> m.getByteProperty("quantity"),
                () -> m.getShortProperty("quantity"), () -> m.getBooleanProperty("quantity"),
                () -> m.getFloatProperty("quantity"), () -> m.getDoubleProperty("quantity"))) {
            MessageFormatException e = assertThrows(MessageFormatException.class, intAsOther);
            assertTrue(e.getMessage().startsWith("property quantity is an int and cannot be read as "), e.getMessage());
        }
        // a byte widens to short, int and long; a short to int and long; a long only to String
        assertEquals((byte) -7, m.getByteProperty("small"));
        assertEquals((short) -7, m.getShortProperty("small"));
        assertEquals(-7, m.getIntProperty("small"));
        assertEquals(-7L, m.getLongProperty("small"));
        assertEquals(300, m.getIntProperty("mid"));
        assertThrows(MessageFormatException.class, () -> m.getByteProperty("mid"));
        assertEquals(9_000_000_000L, m.getLongProperty("big"));
        assertThrows(MessageFormatException.class, () -> m.getIntProperty("big"), "a long does not narrow");
        assertEquals("9000000000", m.getStringProperty("big"));
        // a float reads as double; a double not as float
        assertEquals(0.25f, m.getFloatProperty("ratio"));
        assertEquals(0.25d, m.getDoubleProperty("ratio"));
        assertEquals(19.99, m.getDoubleProperty("price"));
        assertThrows(MessageFormatException.class, () -> m.getFloatProperty("price"));
        assertThrows(MessageFormatException.class, () -> m.getLongProperty("price"));
        // a boolean reads as boolean and String only
        assertTrue(m.getBooleanProperty("urgent"));
        assertEquals("true", m.getStringProperty("urgent"));
        assertThrows(MessageFormatException.class, () -> m.getIntProperty("urgent"));
        // a String parses for every type
        assertEquals(17, m.getIntProperty("count"));
        assertEquals((byte) 17, m.getByteProperty("count"));
        assertEquals(17.0, m.getDoubleProperty("count"));
        assertFalse(m.getBooleanProperty("count"), "Boolean.valueOf of anything but true");
        NumberFormatException nf = assertThrows(NumberFormatException.class, () -> m.getIntProperty("region"));
        assertEquals("property region is \"eu\", which does not read as an int", nf.getMessage());

        List<Object> names = new ArrayList<>(Collections.list(m.getPropertyNames()));
        names.sort(null);
        assertEquals(List.of("JMSXDeliveryCount", "big", "count", "mid", "price", "quantity", "ratio", "region",
                "small", "urgent"), names, "the types header is the adapter's, not a property");
    }

    @Test
    void aMalformedTypesHeaderLeavesTheMessageDeliverableAndNamesTheHeaderWhenAPropertyIsRead() throws Exception {
        for (String types : List.of("quantity", "quantity:integer", "quantity:int")) {
            TextMessage m = (TextMessage) ReceivedMessage.of(row("body".getBytes(StandardCharsets.UTF_8),
                    Map.of("quantity", "five", "sqlqueue.jms.propertyTypes", types, "JMSType", "t"), 2, "k"));
            assertEquals("body", m.getText(), "the body and header fields still read");
            assertEquals("t", m.getJMSType());
            assertEquals(2, m.getIntProperty("JMSXDeliveryCount"), "the adapter's own properties still read");
            assertEquals("k", m.getStringProperty("JMSXGroupID"));
            for (Executable read : List.<Executable>of(() -> m.getStringProperty("quantity"),
                    () -> m.getIntProperty("quantity"), () -> m.getObjectProperty("other"), m::getPropertyNames,
                    () -> m.propertyExists("quantity"))) {
                MessageFormatException e = assertThrows(MessageFormatException.class, read, types);
                assertTrue(e.getMessage().startsWith("the properties of message ID:sales.orders:42 cannot be read: "),
                        e.getMessage());
                assertTrue(e.getMessage().contains("sqlqueue.jms.propertyTypes"), e.getMessage());
            }
        }
    }

    @Test
    void priorityExpirationAndDeliveryTimeComeFromTheRowAndTheSendersDelay() throws Exception {
        Instant expires = SENT.plusSeconds(600);
        Message m = ReceivedMessage.of(new QueueMessage(42, "sales.orders", new byte[] {'x'},
                Map.of("sqlqueue.jms.deliveryDelay", "30000"), SENT, 1, null, 3, expires));
        assertEquals(7, m.getJMSPriority(), "the row's 3 is JMS 7: a row's 0 is the JMS default 4");
        assertEquals(expires.toEpochMilli(), m.getJMSExpiration());
        assertEquals(SENT.toEpochMilli() + 30_000, m.getJMSDeliveryTime());
        assertFalse(m.propertyExists("sqlqueue.jms.deliveryDelay"), "a header of the adapter's, not a property");

        int[][] rowToJms = {{-4, 0}, {0, 4}, {5, 9}, {-100, 0}, {32767, 9}, {-32768, 0}};
        for (int[] p : rowToJms) {
            assertEquals(p[1], ReceivedMessage.of(new QueueMessage(1, "q", new byte[0], Map.of(), SENT, 1, null, p[0],
                    null)).getJMSPriority(), "row priority " + p[0]);
        }
        for (String bad : List.of("soon", "-5")) {
            Message wrong = ReceivedMessage.of(row(new byte[0], Map.of("sqlqueue.jms.deliveryDelay", bad), 1, null));
            MessageFormatException e = assertThrows(MessageFormatException.class, wrong::getJMSDeliveryTime);
            assertTrue(e.getMessage().startsWith("header sqlqueue.jms.deliveryDelay must be a number of milliseconds"),
                    e.getMessage());
        }
    }

    @Test
    void everyMutatorIsRefusedAndAcknowledgeDoesNothing() throws Exception {
        BytesMessage b = (BytesMessage) ReceivedMessage.of(row(new byte[] {(byte) 0xff}, Map.of(), 1, null));
        TextMessage t = (TextMessage) text(Map.of("a", "1"));
        List<Executable> mutators = List.of(() -> t.setText("x"), t::clearBody, t::clearProperties,
                () -> t.setStringProperty("a", "2"), () -> t.setIntProperty("a", 2), () -> t.setObjectProperty("a", 2),
                () -> t.setBooleanProperty("a", true), () -> t.setLongProperty("a", 2), () -> t.setDoubleProperty("a", 2),
                () -> t.setJMSCorrelationID("x"), () -> t.setJMSType("x"), () -> t.setJMSPriority(9),
                () -> t.setJMSRedelivered(false), () -> t.setJMSMessageID("ID:x"),
                () -> b.writeInt(1), () -> b.writeBytes(new byte[1]), () -> b.writeUTF("x"), () -> b.writeObject(1),
                b::clearBody);
        for (Executable mutator : mutators) {
            assertTrue(assertThrows(MessageNotWriteableException.class, mutator).getMessage()
                    .startsWith("a received message is read-only: "));
        }
        t.acknowledge();
        assertEquals("1", t.getStringProperty("a"), "nothing changed");
        assertEquals("héllo", t.getText());
    }

    @Test
    void theBodyTypeIsTheSendersHeaderElseTextWhenTheBodyIsUtf8() throws Exception {
        byte[] utf8 = "{\"id\": 1, \"name\": \"Zoë\"}".getBytes(StandardCharsets.UTF_8);
        byte[] binary = {0, 1, (byte) 0xc3, (byte) 0x28}; // 0xc3 0x28 is not UTF-8
        assertInstanceOf(TextMessage.class, ReceivedMessage.of(row(utf8, Map.of(), 1, null)), "a row by hand");
        assertInstanceOf(BytesMessage.class, ReceivedMessage.of(row(binary, Map.of(), 1, null)), "a row by hand");
        assertInstanceOf(BytesMessage.class, ReceivedMessage.of(row(utf8,
                Map.of("sqlqueue.jms.bodyType", "bytes"), 1, null)), "the sender said bytes");
        assertInstanceOf(TextMessage.class, ReceivedMessage.of(row(new byte[0],
                Map.of("sqlqueue.jms.bodyType", "text"), 1, null)), "the sender said text");
        TextMessage t = (TextMessage) ReceivedMessage.of(row(utf8, Map.of(), 1, null));
        assertEquals("{\"id\": 1, \"name\": \"Zoë\"}", t.getText());
        assertEquals(t.getText(), t.getBody(String.class));
        assertEquals(t.getText(), t.getBody(Object.class));
        assertTrue(t.isBodyAssignableTo(String.class));
        assertFalse(t.isBodyAssignableTo(byte[].class));
        assertThrows(MessageFormatException.class, () -> t.getBody(byte[].class));
    }

    @Test
    void aBytesMessageReadsItsBodyAsADataInputStreamAndResets() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeInt(7);
            out.writeLong(-8);
            out.writeBoolean(true);
            out.writeUTF("zoë");
            out.writeDouble(1.5);
            out.write(new byte[] {1, 2, 3});
        }
        byte[] body = buffer.toByteArray();
        BytesMessage m = (BytesMessage) ReceivedMessage.of(row(body, Map.of("sqlqueue.jms.bodyType", "bytes"), 2, null));
        assertEquals(body.length, m.getBodyLength());
        assertEquals(7, m.readInt());
        assertEquals(-8L, m.readLong());
        assertTrue(m.readBoolean());
        assertEquals("zoë", m.readUTF());
        assertEquals(1.5, m.readDouble());
        assertThrows(MessageEOFException.class, m::readInt, "three bytes left");
        byte[] two = new byte[2];
        assertEquals(2, m.readBytes(two), "the failed read left the position where it was");
        assertArrayEquals(new byte[] {1, 2}, two);
        assertEquals(1, m.readBytes(two));
        assertEquals(3, two[0]);
        assertEquals(-1, m.readBytes(two), "the end of the body");
        assertThrows(IndexOutOfBoundsException.class, () -> m.readBytes(two, 3));
        m.reset();
        assertEquals(0, m.readUnsignedByte());
        assertArrayEquals(body, m.getBody(byte[].class));
        assertTrue(m.isBodyAssignableTo(byte[].class));
        assertFalse(m.isBodyAssignableTo(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(String.class));

        BytesMessage empty = (BytesMessage) ReceivedMessage.of(row(new byte[0],
                Map.of("sqlqueue.jms.bodyType", "bytes"), 1, null));
        assertNull(empty.getBody(String.class), "no body: any type, null");
        assertTrue(empty.isBodyAssignableTo(String.class));
        assertEquals(-1, empty.readBytes(new byte[4]));
        assertThrows(MessageEOFException.class, empty::readByte);
    }
}
