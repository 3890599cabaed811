package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JmsHeadersTest {

    @Test
    void everyPropertyTypeRoundTripsThroughTheHeaders() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("region", "eu");
        properties.put("urgent", true);
        properties.put("b", (byte) -7);
        properties.put("s", (short) 300);
        properties.put("quantity", 5);
        properties.put("big", Long.MAX_VALUE);
        properties.put("f", 0.1f);
        properties.put("price", 19.99);
        properties.put("tiny", Double.MIN_VALUE);

        Map<String, String> headers = JmsHeaders.encode(properties);

        assertEquals("5", headers.get("quantity"), "a property's header is its text, readable without the types");
        assertEquals("urgent:boolean,b:byte,s:short,quantity:int,big:long,f:float,price:double,tiny:double",
                headers.get(JmsHeaders.PROPERTY_TYPES));
        assertEquals(properties, JmsHeaders.decode(headers));
    }

    @Test
    void onlyStringsNeedNoTypesHeaderAndReservedHeadersAreNoProperties() {
        Map<String, String> headers = JmsHeaders.encode(Map.of("region", "eu"));
        assertEquals(Map.of("region", "eu"), headers);

        Map<String, String> sent = new LinkedHashMap<>(headers);
        sent.put(JmsHeaders.BODY_TYPE, JmsHeaders.TEXT);
        sent.put(JmsHeaders.CORRELATION_ID, "c-1");
        sent.put(JmsHeaders.TYPE, "order");
        assertEquals(Map.of("region", "eu"), JmsHeaders.decode(sent));
    }

    @Test
    void badPropertiesAndHandWrittenTypesAreRefusedNamingWhatIsWrong() {
        Map<String, Object> withNull = new LinkedHashMap<>();
        withNull.put("x", null);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JmsHeaders.encode(withNull)).getMessage()
                .contains("property x must be a String"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> JmsHeaders.encode(Map.of("x", new Object()))).getMessage().contains("was java.lang.Object"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> JmsHeaders.encode(Map.of(JmsHeaders.PROPERTY_TYPES, "a"))).getMessage().contains("reserved"));

        assertTrue(assertThrows(IllegalArgumentException.class, () -> JmsHeaders.decode(
                Map.of("q", "five", JmsHeaders.PROPERTY_TYPES, "q:int"))).getMessage()
                .contains("header q is declared int in sqlqueue.jms.propertyTypes but its value \"five\""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JmsHeaders.decode(
                Map.of("q", "5", JmsHeaders.PROPERTY_TYPES, "q:integer"))).getMessage().contains("\"q:integer\""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JmsHeaders.decode(
                Map.of("q", "yes", JmsHeaders.PROPERTY_TYPES, "q:boolean"))).getMessage().contains("declared boolean"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JmsHeaders.encode(Map.of("a:b", 1)))
                .getMessage().contains("holds ':' or ','"), "it would break the types header");
        assertEquals(Map.of("a:b", "x"), JmsHeaders.encode(Map.of("a:b", "x")), "a String needs no type");
    }

    @Test
    void aJmsPriorityIsTheRowsPlusFourClampedToZeroToNine() {
        for (int jms = 0; jms <= 9; jms++) {
            assertEquals(jms, JmsHeaders.jmsPriority(JmsHeaders.rowPriority(jms)));
        }
        assertEquals(0, JmsHeaders.rowPriority(4), "the JMS default is the column's default");
        assertEquals(9, JmsHeaders.jmsPriority(Integer.MAX_VALUE));
        assertEquals(0, JmsHeaders.jmsPriority(Integer.MIN_VALUE));
    }
}
