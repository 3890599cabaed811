package io.sqlqueue.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.InvalidDestinationException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

/** The Queue and Topic administered objects: validated names, equality, serialization. */
class JmsDestinationsTest {

    @Test
    void aQueueIsANamedTableValidatedWhenSet() throws Exception {
        JmsQueue q = new JmsQueue();
        q.setName(" sales.orders ");
        assertEquals("sales.orders", q.getQueueName());
        assertEquals("sales.orders", q.toString());
        assertEquals(new JmsQueue("sales.orders"), q);
        assertEquals(new JmsQueue("sales.orders").hashCode(), q.hashCode());
        assertNotEquals(new JmsQueue("orders"), q);
        assertEquals(q, roundTrip(q));

        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> q.setName("orders; DROP"));
        assertTrue(bad.getMessage().startsWith("queue name 'orders; DROP' is not valid"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> q.setName(""));
        assertEquals("sales.orders", q.getName(), "a refused name changes nothing");
        InvalidDestinationException unnamed = assertThrows(InvalidDestinationException.class,
                () -> new JmsQueue().getQueueName());
        assertTrue(unnamed.getMessage().contains("set its name property"), unnamed.getMessage());
    }

    @Test
    void aTopicIsANamedTopicValidatedWhenSet() throws Exception {
        JmsTopic t = new JmsTopic("prices");
        assertEquals("prices", t.getTopicName());
        assertEquals(t, roundTrip(t));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> new JmsTopic("bad topic"));
        assertTrue(bad.getMessage().startsWith("topic name 'bad topic' is not valid"), bad.getMessage());
        assertThrows(InvalidDestinationException.class, () -> new JmsTopic().getTopicName());
    }

    private static Object roundTrip(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject();
    }
}
