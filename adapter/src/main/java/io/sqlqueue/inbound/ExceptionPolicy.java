package io.sqlqueue.inbound;

import io.sqlqueue.engine.DeliveryFailure;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which failures of a bean are retried and which dead-letter their message at once, from the
 * activation properties {@code unrecoverableExceptions} and {@code retryableExceptions}: class
 * names matched against every exception along the cause chain (the container's
 * {@code EJBException} and the proxies' wrappers included) and its superclasses, by name, so that
 * the bean's classes need not be visible to the adapter. A bean's
 * {@code io.sqlqueue.api.UnrecoverableMessageException} (or a subclass) is never retried.
 * Unrecoverable wins when both lists match. Immutable.
 */
final class ExceptionPolicy {

    static final String UNRECOVERABLE_API = "io.sqlqueue.api.UnrecoverableMessageException";

    /** A Java class name: dotted identifiers, $ for nested classes. */
    private static final Pattern CLASS_NAME =
            Pattern.compile("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

    private final Set<String> unrecoverable;
    /** Empty: every failure not unrecoverable is retried. */
    private final Set<String> retryable;

    private ExceptionPolicy(Set<String> unrecoverable, Set<String> retryable) {
        this.unrecoverable = unrecoverable;
        this.retryable = retryable;
    }

    /**
     * The policy of two comma-separated lists of class names (empty: none).
     *
     * @throws IllegalArgumentException naming the entry that is not a class name
     */
    static ExceptionPolicy of(String unrecoverable, String retryable) {
        return new ExceptionPolicy(classNames(unrecoverable), classNames(retryable));
    }

    /** The class names of a comma-separated list, in order. */
    static Set<String> classNames(String list) {
        Set<String> names = new LinkedHashSet<>();
        if (list == null || list.isBlank()) {
            return Set.of();
        }
        for (String name : Arrays.stream(list.split(",")).map(String::trim).toList()) {
            if (!CLASS_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + name + "' is not a class name (e.g. java.lang.IllegalArgumentException)");
            }
            names.add(name);
        }
        return Set.copyOf(names);
    }

    /**
     * How the failure {@code cause} is recorded: its most telling exception's message and class,
     * unrecoverable with the reason said in the text, or retryable.
     */
    DeliveryFailure failure(Throwable cause) {
        Throwable telling = mostTelling(cause);
        String error = Delivery.describe(cause);
        String errorClass = telling.getClass().getName();
        String notRetried = notRetried(cause);
        return notRetried == null ? new DeliveryFailure(error, errorClass, false)
                : new DeliveryFailure(error + " [not retried: " + notRetried + "]", errorClass, true);
    }

    /** Why {@code cause} is not retried, or null when it is. */
    private String notRetried(Throwable cause) {
        String api = matching(cause, Set.of(UNRECOVERABLE_API));
        if (api != null) {
            return "the bean threw " + api;
        }
        String listed = matching(cause, unrecoverable);
        if (listed != null) {
            return listed + " is one of unrecoverableExceptions";
        }
        if (!retryable.isEmpty() && matching(cause, retryable) == null) {
            return "none of its causes is one of retryableExceptions";
        }
        return null;
    }

    /** The first class along the cause chain that is, or extends, one of {@code names}; null when none. */
    private static String matching(Throwable cause, Set<String> names) {
        if (names.isEmpty()) {
            return null;
        }
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
                if (names.contains(c.getName())) {
                    return t.getClass().getName();
                }
            }
        }
        return null;
    }

    /**
     * The exception along the cause chain that says most: the deepest with a message (the
     * container's wrappers carry none, or a copy), else {@code t} itself.
     */
    static Throwable mostTelling(Throwable t) {
        Throwable best = t;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getMessage() != null) {
                best = c;
            }
        }
        return best;
    }
}
