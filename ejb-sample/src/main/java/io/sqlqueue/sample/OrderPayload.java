package io.sqlqueue.sample;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The text the sample's messages carry: {@code {"orderId":123}}. */
final class OrderPayload {

    private static final Pattern ORDER = Pattern.compile("\\{\"orderId\":(\\d+)}");

    private OrderPayload() {
    }

    static String of(long orderId) {
        return "{\"orderId\":" + orderId + "}";
    }

    /** @throws IllegalArgumentException when the text is not an order */
    static long orderId(String text) {
        Matcher m = ORDER.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("invalid order payload: '" + text + "'");
        }
        return Long.parseLong(m.group(1));
    }
}
