package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a selector's identifiers are for a queued and a published message, and subscription filters of both forms. */
class SelectorValuesTest {

    private static final Instant ENQUEUED = Instant.parse("2024-05-01T10:00:00.123Z");

    private static Map<String, String> headers() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("region", "eu");
        properties.put("quantity", 5);
        properties.put("urgent", true);
        properties.put("price", 19.99);
        Map<String, String> headers = new LinkedHashMap<>(JmsHeaders.encode(properties));
        headers.put(JmsHeaders.CORRELATION_ID, "c-1");
        headers.put(JmsHeaders.TYPE, "order");
        headers.put(JmsHeaders.BODY_TYPE, JmsHeaders.TEXT);
        return headers;
    }

    @Test
    void aQueuedMessageHasItsRowsHeaderFieldsAndTypedProperties() {
        SelectorValues v = SelectorValues.ofQueued("sales.orders", 42, 3, ENQUEUED, 2, "customer-9", headers());
        assertEquals("PERSISTENT", v.apply("JMSDeliveryMode"));
        assertEquals(7, v.apply("JMSPriority"));
        assertEquals("ID:sales.orders:42", v.apply("JMSMessageID"));
        assertEquals(ENQUEUED.toEpochMilli(), v.apply("JMSTimestamp"));
        assertEquals("c-1", v.apply("JMSCorrelationID"));
        assertEquals("order", v.apply("JMSType"));
        assertEquals(2, v.apply("JMSXDeliveryCount"));
        assertEquals("customer-9", v.apply("JMSXGroupID"));
        assertEquals("eu", v.apply("region"));
        assertEquals(5, v.apply("quantity"));
        assertEquals(true, v.apply("urgent"));
        assertEquals(19.99, v.apply("price"));
        assertNull(v.apply("sqlqueue.jms.bodyType"), "reserved headers are no properties");
        assertNull(v.apply("absent"));

        MessageSelector s = MessageSelector.parse("JMSType = 'order' AND quantity > 3 AND urgent AND price < 20"
                + " AND JMSXDeliveryCount = 2 AND JMSMessageID LIKE 'ID:sales.orders:%' AND JMSPriority BETWEEN 5 AND 9"
                + " AND JMSDeliveryMode = 'PERSISTENT' AND JMSTimestamp > 0 AND JMSXGroupID IS NOT NULL");
        assertTrue(s.matches(v));
        assertFalse(MessageSelector.parse("quantity = '5'").matches(v), "an int property is no string");
    }

    @Test
    void priorityIsTheHeaderFieldsAndAbsentFieldsAreNull() {
        assertEquals(4, SelectorValues.ofQueued("q", 1, 0, ENQUEUED, 1, null, Map.of()).apply("JMSPriority"),
                "the row's default is JMS's default");
        assertEquals(0, SelectorValues.ofQueued("q", 1, -5, ENQUEUED, 1, null, Map.of()).apply("JMSPriority"));
        assertEquals(9, SelectorValues.ofQueued("q", 1, 300, ENQUEUED, 1, null, Map.of()).apply("JMSPriority"));
        SelectorValues plain = SelectorValues.ofQueued("q", 1, 0, ENQUEUED, 1, null, Map.of("type", "x"));
        assertNull(plain.apply("JMSXGroupID"));
        assertNull(plain.apply("JMSCorrelationID"));
        assertNull(plain.apply("JMSType"));
        assertEquals("x", plain.apply("type"));
    }

    @Test
    void malformedPropertyTypesLeaveEveryHeaderAString() {
        Map<String, String> byHand = Map.of("quantity", "five", JmsHeaders.PROPERTY_TYPES, "quantity:int");
        assertThrows(IllegalArgumentException.class, () -> JmsHeaders.decode(byHand));
        SelectorValues v = SelectorValues.ofQueued("q", 1, 0, ENQUEUED, 1, null, byHand);
        assertEquals("five", v.apply("quantity"));
        assertNull(v.apply(JmsHeaders.PROPERTY_TYPES));
    }

    @Test
    void aPublishedMessageHasNoIdYetAndIsAboutToBeDeliveredTheFirstTime() {
        OutgoingMessage m = OutgoingMessage.text("x").priority(12).orderingKey("k").headers(headers()).build();
        Instant now = Instant.parse("2024-05-01T10:00:00Z");
        SelectorValues v = SelectorValues.ofPublished(m, now);
        assertNull(v.apply("JMSMessageID"));
        assertEquals(now.toEpochMilli(), v.apply("JMSTimestamp"));
        assertEquals(9, v.apply("JMSPriority"));
        assertEquals(1, v.apply("JMSXDeliveryCount"));
        assertEquals("k", v.apply("JMSXGroupID"));
        assertEquals(5, v.apply("quantity"));
    }

    // ---- subscription filters: selectors, and the form of earlier releases ----

    @Test
    void filtersOfTheEarlierFormMeanWhatTheyMeant() {
        SubscriptionFilter f = SubscriptionFilter.parse("type = 'order-created' AND region IN ('eu', 'uk')");
        assertTrue(f.matches(Map.of("type", "order-created", "region", "uk")));
        assertFalse(f.matches(Map.of("type", "order-created", "region", "us")));
        assertFalse(f.matches(Map.of("type", "order-created")), "no region header: no match");
        assertTrue(SubscriptionFilter.parse("note = 'it''s' and r in ('a','b')").matches(Map.of("note", "it's", "r", "b")));

        // names that are no selector identifiers: read in the earlier form
        SubscriptionFilter dashed = SubscriptionFilter.parse("content-type = 'json' AND event.kind IN ('a', 'b')");
        assertTrue(dashed.matches(Map.of("content-type", "json", "event.kind", "b")));
        assertFalse(dashed.matches(Map.of("content-type", "xml", "event.kind", "b")));
        assertFalse(dashed.matches(Map.of("content", "5", "type", "3", "event.kind", "b")), "no arithmetic");
        assertTrue(SubscriptionFilter.parse("in = 'x' AND 1st = 'y'").matches(Map.of("in", "x", "1st", "y")),
                "reserved words and names starting with a digit too");
        assertEquals("content-type = 'json' AND event.kind IN ('a', 'b')", dashed.text());
    }

    @Test
    void aFilterIsAMessageSelector() {
        SubscriptionFilter f = SubscriptionFilter.parse("type = 'refund' OR (amount > 1000 AND currency <> 'USD')");
        assertTrue(f.matches(Map.of("type", "refund")));
        assertFalse(f.matches(Map.of("type", "order", "amount", "5000", "currency", "EUR")),
                "a header is a String property: amount is no number here");
        Map<String, String> typed = new LinkedHashMap<>(JmsHeaders.encode(Map.of("amount", 5000, "currency", "EUR")));
        typed.put("type", "order");
        assertTrue(f.matches(typed));
        assertTrue(SubscriptionFilter.parse("  ").matches(Map.of()));
        assertEquals(SubscriptionFilter.ALL, SubscriptionFilter.parse(null));
    }

    @Test
    void aFilterThatIsNeitherFormIsRefusedWithTheSelectorsError() {
        assertEquals("subscription filter: unexpected end (expected ',' or ')' in the list of IN) at 10 in: r IN ('a'",
                assertThrows(IllegalArgumentException.class, () -> SubscriptionFilter.parse("r IN ('a'")).getMessage());
        assertEquals("subscription filter: '=' compares 'content - type', a number, with ''json'', a string: never"
                + " true, at 16 in: content - type = 'json'", assertThrows(IllegalArgumentException.class,
                        () -> SubscriptionFilter.parse("content - type = 'json'")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SubscriptionFilter.parse("x".repeat(2001)))
                .getMessage().startsWith("subscription filter must be at most 2000 characters"));
    }
}
