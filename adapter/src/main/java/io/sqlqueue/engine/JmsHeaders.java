package io.sqlqueue.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * How Jakarta Messaging fields and typed properties live in a message's headers, so that the
 * adapter's JMS sender writes and its JMS listeners and selectors read one encoding.
 * <p>
 * A property is a header of its name whose value is the property's text ({@code String.valueOf}),
 * so a {@code QueueListener}, a topic filter or a DBA reading the row sees {@code quantity = 5}
 * whatever sent it. A property of another type than String is named in the reserved header
 * {@value #PROPERTY_TYPES}: {@code name:type} pairs joined by commas, the type one of
 * {@code boolean byte short int long float double} (JMS property names are Java identifiers, so
 * they hold neither). A header it does not name is a String. Float and double texts are Java's, which
 * read back to the same value. Stateless and thread-safe.
 */
public final class JmsHeaders {

    /** Whether a JMS sender sent text or bytes: {@link #TEXT} or {@link #BYTES}. */
    public static final String BODY_TYPE = "sqlqueue.jms.bodyType";
    public static final String TEXT = "text";
    public static final String BYTES = "bytes";
    /**
     * The delivery delay a JMS sender set, in milliseconds (absent: none): the row's
     * {@code visible_at} was its {@code enqueued_at} plus this, so {@code JMSDeliveryTime} is
     * {@code JMSTimestamp} plus this, by the database's clock. A header because {@code visible_at}
     * does not keep that time: a lease or a retry moves it.
     */
    public static final String DELIVERY_DELAY = "sqlqueue.jms.deliveryDelay";
    /** The types of the properties that are not Strings. */
    public static final String PROPERTY_TYPES = "sqlqueue.jms.propertyTypes";
    /** JMS header fields carried as headers: JMS property names may not start with JMS, so they clash with none. */
    public static final String CORRELATION_ID = "JMSCorrelationID";
    public static final String TYPE = "JMSType";
    /** The headers that are not properties. */
    public static final Set<String> RESERVED = Set.of(BODY_TYPE, DELIVERY_DELAY, PROPERTY_TYPES, CORRELATION_ID, TYPE);

    private static final Set<String> TYPES = Set.of("boolean", "byte", "short", "int", "long", "float", "double");

    /**
     * How far a JMS priority is above the row's {@code priority}: the JMS default, 4, is stored as
     * 0, the column's default and a {@code QueueConnection} sender's. Priorities are strict (a
     * higher one is always delivered first), so a JMS sender's default messages must not overtake
     * the other senders' default messages on a shared queue, nor wait behind them.
     */
    public static final int PRIORITY_OFFSET = 4;

    private JmsHeaders() {
    }

    /** The row's {@code priority} of a JMS priority (0 to 9): {@code jmsPriority - }{@value #PRIORITY_OFFSET}. */
    public static int rowPriority(int jmsPriority) {
        return jmsPriority - PRIORITY_OFFSET;
    }

    /**
     * The JMS priority of a row's {@code priority}: {@code priority + }{@value #PRIORITY_OFFSET},
     * clamped to 0 to 9 (a {@code QueueConnection} sender may use any SMALLINT).
     */
    public static int jmsPriority(int rowPriority) {
        return (int) Math.max(0, Math.min(9, (long) rowPriority + PRIORITY_OFFSET));
    }

    /**
     * The headers carrying {@code properties} (name to a String, Boolean, Byte, Short, Integer,
     * Long, Float or Double): each as its text, and {@value #PROPERTY_TYPES} naming those that are
     * not Strings (absent when all are).
     *
     * @throws IllegalArgumentException for a null value, a value of another type, a reserved name,
     *         or a name holding ':' or ',' of a property that is not a String
     */
    public static Map<String, String> encode(Map<String, ?> properties) {
        Map<String, String> headers = new LinkedHashMap<>();
        StringBuilder types = new StringBuilder();
        properties.forEach((name, value) -> {
            if (RESERVED.contains(name)) {
                throw new IllegalArgumentException("property name " + name + " is reserved by the adapter");
            }
            String type = typeOf(name, value);
            if (!type.equals("String")) {
                if (name.contains(":") || name.contains(",")) { // a JMS name never does: it would break the list
                    throw new IllegalArgumentException("property name " + name + " holds ':' or ',', which a"
                            + " property that is not a String cannot have (names are Java identifiers)");
                }
                types.append(types.isEmpty() ? "" : ",").append(name).append(':').append(type);
            }
            headers.put(name, String.valueOf(value));
        });
        if (!types.isEmpty()) {
            headers.put(PROPERTY_TYPES, types.toString());
        }
        return headers;
    }

    /**
     * The properties in {@code headers}, typed as {@value #PROPERTY_TYPES} says, the reserved
     * headers left out.
     *
     * @throws IllegalArgumentException naming the header when {@value #PROPERTY_TYPES} is malformed,
     *         names an unknown type, or a value does not read as its type (a row written by hand)
     */
    public static Map<String, Object> decode(Map<String, String> headers) {
        Map<String, String> types = types(headers.get(PROPERTY_TYPES));
        Map<String, Object> properties = new LinkedHashMap<>();
        headers.forEach((name, text) -> {
            if (!RESERVED.contains(name)) {
                String type = types.get(name);
                properties.put(name, type == null ? text : parse(name, text, type));
            }
        });
        return properties;
    }

    private static String typeOf(String name, Object value) {
        if (value instanceof String) {
            return "String";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof Byte) {
            return "byte";
        }
        if (value instanceof Short) {
            return "short";
        }
        if (value instanceof Integer) {
            return "int";
        }
        if (value instanceof Long) {
            return "long";
        }
        if (value instanceof Float) {
            return "float";
        }
        if (value instanceof Double) {
            return "double";
        }
        throw new IllegalArgumentException("property " + name + " must be a String, boolean, byte, short, int, long,"
                + " float or double, was " + (value == null ? "null" : value.getClass().getName()));
    }

    private static Map<String, String> types(String header) {
        Map<String, String> types = new LinkedHashMap<>();
        if (header == null || header.isBlank()) {
            return types;
        }
        for (String pair : header.split(",")) {
            int colon = pair.indexOf(':');
            String type = colon < 0 ? "" : pair.substring(colon + 1).trim();
            if (colon <= 0 || !TYPES.contains(type)) {
                throw new IllegalArgumentException("header " + PROPERTY_TYPES + " must list name:type pairs, the type"
                        + " one of " + TYPES + "; \"" + pair + "\" is not one in: " + header);
            }
            types.put(pair.substring(0, colon).trim(), type);
        }
        return types;
    }

    private static Object parse(String name, String text, String type) {
        try {
            return switch (type) {
                case "boolean" -> parseBoolean(text);
                case "byte" -> Byte.valueOf(text);
                case "short" -> Short.valueOf(text);
                case "int" -> Integer.valueOf(text);
                case "long" -> Long.valueOf(text);
                case "float" -> Float.valueOf(text);
                default -> Double.valueOf(text);
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("header " + name + " is declared " + type + " in " + PROPERTY_TYPES
                    + " but its value \"" + text + "\" is not one", e);
        }
    }

    private static Boolean parseBoolean(String text) {
        if (text.equals("true") || text.equals("false")) {
            return Boolean.valueOf(text);
        }
        throw new NumberFormatException("not true or false");
    }
}
