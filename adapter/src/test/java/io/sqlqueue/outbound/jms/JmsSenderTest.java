package io.sqlqueue.outbound.jms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueException;
import io.sqlqueue.jms.JmsQueue;
import io.sqlqueue.jms.JmsTopic;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mapping of a JMS message and a producer's settings to a row, without a database. */
class JmsSenderTest {

    /** A QueueConnection that records what it is given. */
    private static class Recording implements QueueConnection {
        final List<String> sentTo = new ArrayList<>();
        final List<OutgoingMessage> sent = new ArrayList<>();

        @Override
        public long send(String queue, OutgoingMessage message) {
            io.sqlqueue.engine.TableName.parse(queue);
            sentTo.add(queue);
            sent.add(message);
            return 41 + sent.size();
        }

        @Override
        public long[] sendAll(String queue, List<OutgoingMessage> messages) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int publish(String topic, OutgoingMessage message) {
            sentTo.add("topic " + topic);
            sent.add(message);
            return 2;
        }

        @Override
        public boolean cancel(String queue, long messageId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean cancelByDedupKey(String queue, String dedupKey) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }

    @Test
    void theProducersSettingsAndTheMessagesFieldsBecomeTheRow() throws Exception {
        OutgoingTextMessage m = new OutgoingTextMessage("héllo");
        m.setJMSCorrelationID("c-1");
        m.setJMSType("greeting");
        m.setIntProperty("n", 1);
        m.setStringProperty("JMSXGroupID", "k-1");
        SendOptions options = new SendOptions().priority(0).deliveryDelay(1_500).timeToLive(60_000);
        OutgoingMessage row = JmsSender.row(m, options, new JmsSender.Overrides(Map.of("n", "overridden", "x", 2.5),
                null, "override"));
        assertArrayEquals("héllo".getBytes(StandardCharsets.UTF_8), row.body());
        assertEquals(-4, row.priority());
        assertEquals(Duration.ofMillis(1_500), row.delay());
        assertEquals(Duration.ofMinutes(1), row.timeToLive());
        assertEquals("k-1", row.orderingKey());
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("n", "overridden");
        expected.put("x", "2.5");
        expected.put("sqlqueue.jms.propertyTypes", "x:double");
        expected.put("sqlqueue.jms.bodyType", "text");
        expected.put("JMSCorrelationID", "c-1");
        expected.put("JMSType", "override");
        expected.put("sqlqueue.jms.deliveryDelay", "1500");
        assertEquals(expected, row.headers());
        assertNull(row.dedupKey());

        OutgoingMessage defaults = JmsSender.row(new OutgoingJmsMessage(), new SendOptions(),
                JmsSender.Overrides.NONE);
        assertEquals(0, defaults.priority(), "the JMS default 4 is the column's 0");
        assertEquals(Duration.ZERO, defaults.delay());
        assertNull(defaults.timeToLive());
        assertEquals(Map.of("sqlqueue.jms.bodyType", "bytes"), defaults.headers(), "a Message without a body");
        assertEquals(0, defaults.body().length);
    }

    @Test
    void aSendSetsTheHeaderFieldsOfTheMessageAndATopicGivesNoId() throws Exception {
        Recording c = new Recording();
        OutgoingTextMessage m = new OutgoingTextMessage("x");
        long before = System.currentTimeMillis();
        JmsSender.send(c, new JmsQueue("orders"), m, new SendOptions().priority(8).timeToLive(1_000),
                JmsSender.Overrides.NONE);
        assertEquals("ID:orders:42", m.getJMSMessageID());
        assertEquals(new JmsQueue("orders"), m.getJMSDestination());
        assertEquals(8, m.getJMSPriority());
        assertTrue(m.getJMSTimestamp() >= before);
        assertEquals(m.getJMSTimestamp() + 1_000, m.getJMSExpiration());
        assertEquals(m.getJMSTimestamp(), m.getJMSDeliveryTime());

        JmsSender.send(c, new JmsTopic("prices"), m, new SendOptions(), JmsSender.Overrides.NONE);
        assertNull(m.getJMSMessageID());
        assertEquals(0, m.getJMSExpiration(), "never");
        assertEquals(List.of("orders", "topic prices"), c.sentTo);
    }

    /** A TextMessage of another provider (or a received one), read-only as a received message is. */
    private static TextMessage foreign(Map<String, Object> properties) {
        return (TextMessage) Proxy.newProxyInstance(JmsSenderTest.class.getClassLoader(), new Class<?>[] {TextMessage.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getText" -> "forwarded";
                    case "getPropertyNames" -> Collections.enumeration(properties.keySet());
                    case "getObjectProperty" -> properties.get(args[0]);
                    case "getJMSCorrelationID" -> "corr";
                    case "getJMSReplyTo", "getJMSType" -> null;
                    default -> {
                        if (method.getName().startsWith("set")) {
                            throw new MessageNotWriteableException("read-only");
                        }
                        throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    @Test
    void aForeignOrReceivedMessageIsSentThroughItsInterfaceWithoutTheProvidersJmsxProperties() throws Exception {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("JMSXDeliveryCount", 3);
        properties.put("JMSXGroupID", "account-9");
        properties.put("JMS_acme_route", "x");
        properties.put("region", "eu");
        properties.put("x-request-id", "r-1"); // a QueueConnection header, received as a String property
        properties.put("quantity", 5);
        Recording c = new Recording();
        JmsSender.send(c, new JmsQueue("forwarded"), foreign(properties), new SendOptions(), JmsSender.Overrides.NONE);
        OutgoingMessage row = c.sent.get(0);
        assertEquals("forwarded", new String(row.body(), StandardCharsets.UTF_8));
        assertEquals("account-9", row.orderingKey());
        assertEquals(Map.of("region", "eu", "x-request-id", "r-1", "quantity", "5",
                "sqlqueue.jms.propertyTypes", "quantity:int", "sqlqueue.jms.bodyType", "text",
                "JMSCorrelationID", "corr"), row.headers());
    }

    @Test
    void aBytesMessageIsWriteOnlyUntilResetAndSendsWhatWasWritten() throws Exception {
        OutgoingBytesMessage m = new OutgoingBytesMessage(null);
        m.writeInt(7);
        m.writeObject("zoë");
        m.writeObject(new byte[] {9});
        assertThrows(MessageNotReadableException.class, m::readInt);
        assertThrows(MessageNotReadableException.class, m::getBodyLength);
        assertThrows(MessageFormatException.class, () -> m.writeObject(new Object()));
        assertThrows(NullPointerException.class, () -> m.writeObject(null));
        byte[] written = JmsSender.row(m, new SendOptions(), JmsSender.Overrides.NONE).body();
        assertEquals(4 + 2 + 4 + 1, written.length, "an int, a modified UTF-8 string and a byte");
        m.reset();
        assertEquals(written.length, m.getBodyLength());
        assertEquals(7, m.readInt());
        assertEquals("zoë", m.readUTF());
        assertEquals(9, m.readByte());
        assertThrows(MessageEOFException.class, m::readByte);
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(1));
        assertArrayEquals(written, m.getBody(byte[].class));
        m.clearBody();
        m.writeByte((byte) 1);
        assertArrayEquals(new byte[] {1}, JmsSender.row(m, new SendOptions(), JmsSender.Overrides.NONE).body());
        assertNull(new OutgoingBytesMessage(null).getBody(byte[].class), "an empty body is no body");
    }

    @Test
    void otherBodiesAndAReplyToAreRefused() throws Exception {
        Message map = (Message) Proxy.newProxyInstance(JmsSenderTest.class.getClassLoader(),
                new Class<?>[] {jakarta.jms.MapMessage.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getPropertyNames" -> Collections.emptyEnumeration();
                    default -> null;
                });
        JMSException e = assertThrows(JMSException.class,
                () -> JmsSender.row(map, new SendOptions(), JmsSender.Overrides.NONE));
        assertEquals("sending a MapMessage is not supported by the SQL queue adapter: " + Refusals.OTHER_BODIES,
                e.getMessage());
    }

    @Test
    void aSessionsModeFollowsTheSpecificationForJakartaEe() throws Exception {
        for (int mode : new int[] {0, 1, 2, 3}) {
            assertEquals(Session.SESSION_TRANSACTED, SessionModes.of(true, mode, "x"), "ignored in a transaction");
        }
        assertEquals(Session.AUTO_ACKNOWLEDGE, SessionModes.of(false, Session.AUTO_ACKNOWLEDGE, "x"));
        assertEquals(Session.CLIENT_ACKNOWLEDGE, SessionModes.of(false, Session.CLIENT_ACKNOWLEDGE, "x"));
        JMSException local = assertThrows(JMSException.class, () -> SessionModes.of(false, 0, "createSession"));
        assertEquals(Refusals.UNSUPPORTED, local.getErrorCode());
        assertThrows(JMSException.class, () -> SessionModes.of(false, 9, "createSession"));
    }

    @Test
    void aDatabaseFailureIsAJmsExceptionWithItsCauseLinked() {
        QueueConnection failing = new Recording() {
            @Override
            public long send(String queue, OutgoingMessage message) {
                throw new QueueException("cannot enqueue to 'orders': the database is down");
            }
        };
        JMSException e = assertThrows(JMSException.class, () -> JmsSender.send(failing, new JmsQueue("orders"),
                new OutgoingTextMessage("x"), new SendOptions(), JmsSender.Overrides.NONE));
        assertEquals("cannot enqueue to 'orders': the database is down", e.getMessage());
        assertTrue(e.getLinkedException() instanceof QueueException);
    }
}
