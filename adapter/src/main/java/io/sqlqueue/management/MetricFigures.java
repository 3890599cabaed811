package io.sqlqueue.management;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import javax.management.ObjectName;

/**
 * The numeric figures of one registered bean for Prometheus: {@code sqlqueue_<type>_<figure>},
 * labelled with the bean name's key properties ({@code database}, {@code queue}, {@code consumer},
 * {@code bean_instance}). Counts since activation are counters ({@code _total}), levels gauges;
 * durations in seconds, Prometheus' base unit; percentiles as one gauge with a {@code quantile}
 * label, as Prometheus summaries show them. The HELP text is the {@link Description} of the
 * attribute a figure is read from. The same names, types and texts as
 * {@code docs/prometheus-jmx-exporter.yaml} gives them on WildFly, so one dashboard fits both.
 */
final class MetricFigures {

    /** How Prometheus is to take a figure. */
    enum Type {
        /** Only grows (a reset, as on a new activation, is taken as one by rate()). */
        COUNTER,
        /** Goes up and down. */
        GAUGE
    }

    /** One figure: its name, type, HELP text, labels, and how to read it. */
    record Figure(String name, Type type, String help, Map<String, String> labels, DoubleSupplier value) {
    }

    private final Class<?> mxbean;
    private final Map<String, String> labels;
    private final List<Figure> figures = new ArrayList<>();

    private MetricFigures(ObjectName name, Class<?> mxbean) {
        this.mxbean = mxbean;
        labels = labels(name);
    }

    /** The figures of {@code bean}, registered as {@code name}; none for a bean of another kind. */
    static List<Figure> of(ObjectName name, Object bean) {
        if (bean instanceof QueueMXBean q) {
            MetricFigures f = new MetricFigures(name, QueueMXBean.class);
            // -1: the database cannot be read; NaN leaves a gap in a graph instead of a dip below zero
            f.gauge("sqlqueue_queue_ready", "Ready", () -> known(q.getReady()));
            f.gauge("sqlqueue_queue_delayed", "Delayed", () -> known(q.getDelayed()));
            f.gauge("sqlqueue_queue_leased", "Leased", () -> known(q.getLeased()));
            f.gauge("sqlqueue_queue_dead_letters", "DeadLettered", () -> known(q.getDeadLettered()));
            f.gauge("sqlqueue_queue_expired", "Expired", () -> known(q.getExpired()));
            f.gauge("sqlqueue_queue_oldest_ready_age_seconds", "OldestReadyAgeMillis",
                    () -> q.getOldestReadyAgeMillis() / 1000.0);
            return f.all();
        }
        if (bean instanceof ConsumerMXBean c) {
            MetricFigures f = new MetricFigures(name, ConsumerMXBean.class);
            // counts since the activation: a redeployment starts them at zero, which rate() takes as a reset
            f.counter("sqlqueue_consumer_committed_total", "Committed", c::getCommitted);
            f.counter("sqlqueue_consumer_rolled_back_total", "RolledBack", c::getRolledBack);
            f.counter("sqlqueue_consumer_dead_lettered_total", "DeadLettered", c::getDeadLettered);
            f.counter("sqlqueue_consumer_expired_total", "Expired", c::getExpired);
            f.counter("sqlqueue_consumer_polls_total", "Polls", c::getPolls);
            f.counter("sqlqueue_consumer_empty_polls_total", "EmptyPolls", c::getEmptyPolls);
            f.counter("sqlqueue_consumer_paused_polls_total", "PausedPolls", c::getPausedPolls);
            f.gauge("sqlqueue_consumer_in_flight", "InFlight", c::getInFlight);
            f.gauge("sqlqueue_consumer_paused", "Paused", () -> c.isPaused() ? 1 : 0);
            f.gauge("sqlqueue_consumer_circuit_open", "CircuitOpen", () -> c.isCircuitOpen() ? 1 : 0);
            f.gauge("sqlqueue_consumer_consecutive_failures", "ConsecutiveFailures", c::getConsecutiveFailures);
            f.quantiles("sqlqueue_consumer_latency_seconds", "Latency", c::getLatencyP50Millis,
                    c::getLatencyP95Millis, c::getLatencyP99Millis);
            f.quantiles("sqlqueue_consumer_processing_seconds", "Processing", c::getProcessingP50Millis,
                    c::getProcessingP95Millis, c::getProcessingP99Millis);
            return f.all();
        }
        if (bean instanceof ProducerMXBean p) {
            MetricFigures f = new MetricFigures(name, ProducerMXBean.class);
            f.counter("sqlqueue_producer_sent_total", "Sent", p::getSent);
            f.counter("sqlqueue_producer_cancelled_total", "Cancelled", p::getCancelled);
            f.counter("sqlqueue_producer_errors_total", "Errors", p::getErrors);
            f.quantiles("sqlqueue_producer_send_seconds", "Send", p::getSendP50Millis, p::getSendP95Millis,
                    p::getSendP99Millis);
            return f.all();
        }
        return List.of();
    }

    private List<Figure> all() {
        return Collections.unmodifiableList(figures);
    }

    private void counter(String metric, String attribute, DoubleSupplier value) {
        figures.add(new Figure(metric, Type.COUNTER, help(attribute), labels, value));
    }

    private void gauge(String metric, String attribute, DoubleSupplier value) {
        figures.add(new Figure(metric, Type.GAUGE, help(attribute), labels, value));
    }

    /** {@code <attribute>P50Millis}, {@code P95Millis} and {@code P99Millis} as one gauge in seconds. */
    private void quantiles(String metric, String attribute, DoubleSupplier p50Millis, DoubleSupplier p95Millis,
            DoubleSupplier p99Millis) {
        String help = help(attribute + "P50Millis");
        quantile(metric, help, "0.5", p50Millis);
        quantile(metric, help, "0.95", p95Millis);
        quantile(metric, help, "0.99", p99Millis);
    }

    private void quantile(String metric, String help, String quantile, DoubleSupplier millis) {
        Map<String, String> withQuantile = new LinkedHashMap<>(labels);
        withQuantile.put("quantile", quantile);
        figures.add(new Figure(metric, Type.GAUGE, help, Collections.unmodifiableMap(withQuantile),
                () -> millis.getAsDouble() / 1000.0));
    }

    private String help(String attribute) {
        String help = AttributeDescriptions.of(mxbean, attribute);
        if (help == null) {
            throw new IllegalStateException(mxbean.getSimpleName() + "." + attribute + " has no @Description");
        }
        return help;
    }

    private static double known(long count) {
        return count < 0 ? Double.NaN : count;
    }

    /**
     * The key properties but {@code type}, unquoted; {@code name} says what it names: the queue
     * (Queue), the bean class (Consumer), the database (Producer). {@code instance} (a second bean of
     * the same name) becomes {@code bean_instance}: Prometheus keeps {@code instance} for the target.
     * A figure of every bean carries {@code bean_instance}, empty for the first: a metrics registry
     * (Payara's) refuses a name whose label names differ from those it registered first, so a second
     * bean's figures would be lost; Prometheus reads an empty label as none, as the JMX exporter's
     * rules write it, so queries and the dashboard see the first bean's series as before.
     */
    private static Map<String, String> labels(ObjectName name) {
        String type = name.getKeyProperty("type");
        Map<String, String> labels = new LinkedHashMap<>();
        name.getKeyPropertyList().forEach((key, value) -> {
            if (!key.equals("type") && !key.equals("instance")) {
                labels.put(key.equals("name") ? nameLabel(type) : key, unquote(value));
            }
        });
        String instance = name.getKeyProperty("instance");
        labels.put("bean_instance", instance == null ? "" : instance);
        return Collections.unmodifiableMap(labels);
    }

    private static String nameLabel(String type) {
        return switch (type) {
            case "Queue" -> "queue";
            case "Consumer" -> "consumer";
            case "Producer" -> "database";
            default -> "name";
        };
    }

    private static String unquote(String value) {
        return value.startsWith("\"") ? ObjectName.unquote(value) : value;
    }
}
