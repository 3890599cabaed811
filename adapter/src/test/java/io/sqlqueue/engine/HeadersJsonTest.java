package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadersJsonTest {

    @Test
    void roundTripsAwkwardCharacters() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("plain", "value");
        headers.put("quote\"back\\slash", "tab\tnew\nline\rcr");
        headers.put("control", "\u0001\u001f");
        headers.put("unicode", "注文 ✓ 😀");
        headers.put("empty", "");
        String json = HeadersJson.write(headers);
        assertEquals(headers, HeadersJson.read(json));
        assertTrue(json.startsWith("{\"plain\":\"value\""), json);
    }

    @Test
    void noHeadersIsNull() {
        assertNull(HeadersJson.write(Map.of()));
        assertEquals(Map.of(), HeadersJson.read(null));
        assertEquals(Map.of(), HeadersJson.read("{}"));
    }

    @Test
    void readsHandWrittenJsonWithSpacesAndEscapes() {
        assertEquals(Map.of("a", "b/c", "é", "x"), HeadersJson.read(" { \"a\" : \"b\\/c\" , \"\\u00e9\":\"x\" } "));
    }

    @Test
    void rejectsAnythingButAFlatObjectOfStrings() {
        for (String bad : new String[] {"[]", "{\"a\":1}", "{\"a\":\"b\"", "{\"a\":\"b\"} x", "{\"a\" \"b\"}",
                "{\"a\":\"\\q\"}", "{\"a\":\"\\u12\"}"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HeadersJson.read(bad), bad);
            assertTrue(e.getMessage().contains("headers"), e.getMessage());
        }
    }
}
