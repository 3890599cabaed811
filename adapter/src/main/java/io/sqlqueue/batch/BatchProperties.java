package io.sqlqueue.batch;

import io.sqlqueue.JndiLookup;
import javax.naming.NamingException;

/**
 * Reads the batch properties of the queue's reader and writer: each a string from job XML, checked
 * here with an error that names the property, the value and what it must be.
 */
final class BatchProperties {

    private final String artifact;

    /** For the artifact named {@code artifact} in the errors (e.g. "QueueItemReader"). */
    BatchProperties(String artifact) {
        this.artifact = artifact;
    }

    String required(String name, String value) {
        if (value == null || value.isBlank()) {
            throw invalid(name, value, "must be set");
        }
        return value.trim();
    }

    long number(String name, String value, long defaultValue, long min, long max) {
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw invalid(name, value, "must be a whole number from " + min + " to " + max);
        }
        if (n < min || n > max) {
            throw invalid(name, value, "must be from " + min + " to " + max);
        }
        return n;
    }

    boolean flag(String name, String value, boolean defaultValue) {
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(name, value, "must be true or false");
        };
    }

    /** The object bound at the JNDI name in property {@code name}, of type {@code type}. */
    <T> T lookup(String name, String jndiName, Class<T> type) {
        try {
            return JndiLookup.find("batch property " + name, jndiName, type);
        } catch (NamingException e) {
            throw new IllegalArgumentException(artifact + ": " + e.getMessage(), e);
        }
    }

    IllegalArgumentException invalid(String name, String value, String problem) {
        return new IllegalArgumentException(artifact + ": batch property " + name
                + (value == null ? "" : " ('" + value + "')") + " " + problem);
    }
}
