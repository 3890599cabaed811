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

    /** The property holding a message's ordering key, and the one numbering it in its group (the specification's names). */
    public static final String GROUP_ID = "JMSXGroupID";
    public static final String GROUP_SEQ = "JMSXGroupSeq";

    private static final Set<Class<?>> TYPES = Set.of(String.class, Boolean.class, Byte.class, Short.class,
            Integer.class, Long.class, Float.class, Double.class);
    /** Words of the selector grammar, which no property name may be. */
    private static final Set<String> SELECTOR_WORDS = new java.util.TreeSet<>(Set.of("NULL", "TRUE", "FALSE", "NOT",
            "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE"));

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

    /**
     * Sets a property, as a sender does. The name must be a Java identifier that is not one of the
     * selector grammar's words (Jakarta Messaging 3.5.1), and not start with {@code JMS} (the
     * specification's names), except {@value #GROUP_ID} (a String: the ordering key) and
     * {@value #GROUP_SEQ} (an int), which a sender sets.
     *
     * @throws IllegalArgumentException naming what is wrong with the name (the specification's
     *         exception for a null or empty one)
     * @throws MessageFormatException for a value of another type than the eight, or a JMSX property
     *         of the wrong type
     */
    public void set(String name, Object value) throws MessageFormatException {
        checkName(name);
        if (value == null || !TYPES.contains(value.getClass())) {
            throw new MessageFormatException("property " + name + " must be a String, Boolean, Byte, Short, Integer,"
                    + " Long, Float or Double, was " + (value == null ? "null" : value.getClass().getName()));
        }
        if (name.equals(GROUP_ID) && !(value instanceof String)) {
            throw new MessageFormatException(GROUP_ID + " must be a String (the ordering key), was a " + typeOf(value));
        }
        if (name.equals(GROUP_SEQ) && !(value instanceof Integer)) {
            throw new MessageFormatException(GROUP_SEQ + " must be an int, was a " + typeOf(value));
        }
        values.put(name, value);
    }

    /** Removes every property. */
    public void clear() {
        values.clear();
    }

    /**
     * @throws IllegalArgumentException when {@code name} cannot be a property a sender sets
     */
    static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a property name must not be null or empty");
        }
        boolean identifier = Character.isJavaIdentifierStart(name.charAt(0))
                && name.codePoints().allMatch(Character::isJavaIdentifierPart);
        if (!identifier || SELECTOR_WORDS.contains(name.toUpperCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("property name '" + name + "' is not valid: a property name is a Java"
                    + " identifier and not one of " + SELECTOR_WORDS + " (Jakarta Messaging 3.5.1)");
        }
        if (name.startsWith("JMS") && !name.equals(GROUP_ID) && !name.equals(GROUP_SEQ)) {
            throw new IllegalArgumentException("property name '" + name + "' is reserved: names starting with JMS are"
                    + " the specification's, and a sender sets only " + GROUP_ID + " and " + GROUP_SEQ);
        }
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
