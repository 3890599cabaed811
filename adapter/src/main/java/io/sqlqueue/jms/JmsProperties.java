package io.sqlqueue.jms;

import jakarta.jms.MessageFormatException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The properties of a Jakarta Messaging message, each a String, Boolean, Byte, Short, Integer,
 * Long, Float or Double, read through the conversions of the specification's table (Jakarta
 * Messaging 3.1, 3.5.4): a value reads as its own type, as a wider one of its kind (a byte as
 * short, int or long; a float as double) and as a String; a String reads as any type through that
 * type's {@code valueOf}. Any other conversion is a {@link MessageFormatException}; a String that
 * does not parse, or a missing property read as a number, a {@link NumberFormatException}; a
 * missing property reads as false, or as null for {@code String} and {@code Object}. Shared by
 * the messages the adapter delivers and those it sends, so both convert alike. Not thread-safe,
 * as a JMS message is used by one thread.
 */
public final class JmsProperties {

    private final Map<String, Object> values = new LinkedHashMap<>();

    /** No properties. */
    public JmsProperties() {
    }

    /**
     * These properties, in this order.
     *
     * @throws IllegalArgumentException for a value of another type than the eight above
     */
    public JmsProperties(Map<String, ?> values) {
        values.forEach((name, value) -> {
            typeOf(value);
            this.values.put(name, value);
        });
    }

    public boolean exists(String name) {
        return values.containsKey(name);
    }

    /** The names, in the order they were set (a view). */
    public Set<String> names() {
        return Collections.unmodifiableSet(values.keySet());
    }

    /** The properties, by name (a view). */
    public Map<String, Object> asMap() {
        return Collections.unmodifiableMap(values);
    }

    /** The value as it was set, or null. */
    public Object get(String name) {
        return values.get(name);
    }

    /** The value's text ({@code String.valueOf}), or null when the property is missing. */
    public String getString(String name) {
        Object value = values.get(name);
        return value == null ? null : value.toString();
    }

    public boolean getBoolean(String name) throws MessageFormatException {
        Object value = values.get(name);
        if (value instanceof Boolean b) {
            return b;
        }
        return Boolean.valueOf(text(name, value, "boolean")); // missing: false, as Boolean.valueOf(null)
    }

    public byte getByte(String name) throws MessageFormatException {
        Object value = values.get(name);
        if (value instanceof Byte b) {
            return b;
        }
        String text = number(name, value, "byte");
        try {
            return Byte.parseByte(text);
        } catch (NumberFormatException e) {
            throw notA(name, text, "byte");
        }
    }

    public short getShort(String name) throws MessageFormatException {
        Object value = values.get(name);
        if (value instanceof Short || value instanceof Byte) {
            return ((Number) value).shortValue();
        }
        String text = number(name, value, "short");
        try {
            return Short.parseShort(text);
        } catch (NumberFormatException e) {
            throw notA(name, text, "short");
        }
    }

    public int getInt(String name) throws MessageFormatException {
        Object value = values.get(name);
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).intValue();
        }
        String text = number(name, value, "int");
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw notA(name, text, "int");
        }
    }

    public long getLong(String name) throws MessageFormatException {
        Object value = values.get(name);
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        String text = number(name, value, "long");
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw notA(name, text, "long");
        }
    }

    public float getFloat(String name) throws MessageFormatException {
        Object value = values.get(name);
        if (value instanceof Float f) {
            return f;
        }
        String text = number(name, value, "float");
        try {
            return Float.parseFloat(text);
        } catch (NumberFormatException e) {
            throw notA(name, text, "float");
        }
    }

    public double getDouble(String name) throws MessageFormatException {
        Object value = values.get(name);
        if (value instanceof Double || value instanceof Float) {
            return ((Number) value).doubleValue();
        }
        String text = number(name, value, "double");
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw notA(name, text, "double");
        }
    }

    /**
     * The String to parse as a number: a missing property is a NumberFormatException for every
     * type alike, as {@code Integer.valueOf(null)} is (Double.valueOf(null) alone would throw a
     * NullPointerException).
     */
    private static String number(String name, Object value, String type) throws MessageFormatException {
        String text = text(name, value, type);
        if (text == null) {
            throw new NumberFormatException("property " + name + " is not set, so it has no " + type + " value");
        }
        return text;
    }

    /** The value when it is a String, null when missing; a value of another type does not convert. */
    private static String text(String name, Object value, String type) throws MessageFormatException {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new MessageFormatException("property " + name + " is " + a(typeOf(value)) + " and cannot be read as "
                + a(type) + " (Jakarta Messaging 3.5.4: a value reads as its own type, a wider one of its kind, or a"
                + " String)");
    }

    private static NumberFormatException notA(String name, String text, String type) {
        return new NumberFormatException("property " + name + " is \"" + text + "\", which does not read as " + a(type));
    }

    private static String a(String type) {
        return (type.equals("int") ? "an " : "a ") + type;
    }

    /**
     * The JMS name of a property value's type.
     *
     * @throws IllegalArgumentException for null or a value of another type
     */
    static String typeOf(Object value) {
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
        throw new IllegalArgumentException("a property value must be a String, Boolean, Byte, Short, Integer, Long,"
                + " Float or Double, was " + (value == null ? "null" : value.getClass().getName()));
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
