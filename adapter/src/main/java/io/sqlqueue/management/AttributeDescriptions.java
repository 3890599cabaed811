package io.sqlqueue.management;

import java.lang.reflect.Method;

/** Reads the {@link Description} of a management interface's attribute. */
final class AttributeDescriptions {

    private AttributeDescriptions() {
    }

    /**
     * The description of {@code attribute} (as JMX names it: {@code Committed} for
     * {@code getCommitted}, {@code Paused} for {@code isPaused}) of {@code mxbean}, or null if its
     * getter has none.
     *
     * @throws IllegalArgumentException if {@code mxbean} has no getter for {@code attribute}
     */
    static String of(Class<?> mxbean, String attribute) {
        for (String prefix : new String[] {"get", "is"}) {
            try {
                Method getter = mxbean.getMethod(prefix + attribute);
                Description d = getter.getAnnotation(Description.class);
                return d == null ? null : d.value();
            } catch (NoSuchMethodException tryNext) {
                // "is" for a boolean attribute
            }
        }
        throw new IllegalArgumentException(mxbean.getSimpleName() + " has no attribute " + attribute);
    }
}
