package io.sqlqueue.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.MessageFormatException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The property names a sender may set, the eight types, and the conversion table. */
class JmsPropertiesTest {

    @Test
    void aSenderSetsJavaIdentifiersOfTheEightTypesAndTheTwoJmsxGroupProperties() throws Exception {
        JmsProperties p = new JmsProperties();
        p.set("quantity", 5);
        p.set("_under", "x");
        p.set("café", true);
        p.set("JMSXGroupID", "customer-7");
        p.set("JMSXGroupSeq", 2);
        p.set("quantity", 6L); // a repeated name replaces
        assertEquals(List.of("quantity", "_under", "café", "JMSXGroupID", "JMSXGroupSeq"), List.copyOf(p.names()));
        assertEquals(6L, p.get("quantity"));

        for (String bad : new String[] {null, "", "a-b", "1st", "a.b", "a:b", "NULL", "between", "Escape"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.set(bad, "v"), bad);
            assertTrue(e.getMessage().contains(bad == null || bad.isEmpty() ? "must not be null or empty"
                    : "property name '" + bad + "' is not valid"), e.getMessage());
        }
        for (String reserved : new String[] {"JMSXDeliveryCount", "JMSXUserID", "JMS_acme_thing", "JMSType"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.set(reserved, "v"));
            assertTrue(e.getMessage().startsWith("property name '" + reserved + "' is reserved"), e.getMessage());
        }
        assertThrows(MessageFormatException.class, () -> p.set("o", new Object()));
        assertThrows(MessageFormatException.class, () -> p.set("o", null));
        assertThrows(MessageFormatException.class, () -> p.set("c", 'c'), "a char is no property type");
        assertThrows(MessageFormatException.class, () -> p.set("JMSXGroupID", 7));
        assertThrows(MessageFormatException.class, () -> p.set("JMSXGroupSeq", "2"));
        p.clear();
        assertTrue(p.names().isEmpty());
    }

    @Test
    void valuesConvertAsTheSpecificationsTableSays() throws Exception {
        JmsProperties p = new JmsProperties(Map.of("b", (byte) 1, "s", (short) 2, "i", 3, "l", 4L, "f", 1.5f,
                "d", 2.5, "t", true, "text", "42"));
        assertEquals(1, p.getShort("b"));
        assertEquals(1, p.getInt("b"));
        assertEquals(1L, p.getLong("b"));
        assertEquals(2, p.getInt("s"));
        assertEquals(2L, p.getLong("s"));
        assertEquals(3L, p.getLong("i"));
        assertEquals(1.5, p.getDouble("f"));
        assertEquals("1.5", p.getString("f"));
        assertEquals(42, p.getInt("text"));
        assertEquals(42L, p.getLong("text"));
        assertEquals((short) 42, p.getShort("text"));
        assertEquals(42.0f, p.getFloat("text"));
        assertFalse(p.getBoolean("text"));
        assertTrue(p.getBoolean("t"));
        for (String[] refused : new String[][] {{"s", "byte"}, {"i", "short"}, {"l", "int"}, {"d", "float"},
                {"f", "long"}, {"t", "int"}, {"i", "boolean"}, {"b", "float"}}) {
            Class<?> expected = MessageFormatException.class;
            Throwable e = assertThrows(Throwable.class, () -> read(p, refused[0], refused[1]));
            assertEquals(expected, e.getClass(), refused[0] + " as " + refused[1]);
        }
        assertThrows(NumberFormatException.class, () -> p.getByte("missing"));
        assertThrows(NumberFormatException.class, () -> p.getFloat("missing"));
        assertFalse(p.getBoolean("missing"));
        assertNull(p.getString("missing"));
        assertThrows(IllegalArgumentException.class, () -> new JmsProperties(Map.of("x", new Object())));
    }

    private static Object read(JmsProperties p, String name, String type) throws Exception {
        return switch (type) {
            case "boolean" -> p.getBoolean(name);
            case "byte" -> p.getByte(name);
            case "short" -> p.getShort(name);
            case "int" -> p.getInt(name);
            case "long" -> p.getLong(name);
            case "float" -> p.getFloat(name);
            default -> p.getDouble(name);
        };
    }
}
