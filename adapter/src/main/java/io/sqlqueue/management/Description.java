package io.sqlqueue.management;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a management bean's attribute means, in one place: JMX consoles show it as the attribute's
 * description ({@link DescribedMXBean}), {@code /metrics} as the HELP of the figure read from it
 * ({@link MetricFigures}), and the JMX exporter's rules for WildFly carry the same text
 * (a test compares them). No unit in the text: the attribute's name says milliseconds, the metric's
 * name seconds.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Description {

    String value();
}
