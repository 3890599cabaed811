package io.sqlqueue.management;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import javax.management.ObjectName;

/**
 * The numeric figures of one registered bean as Prometheus gauges: {@code sqlqueue_<type>_<figure>},
 * labelled with the bean name's key properties ({@code database}, {@code queue}, {@code consumer},
 * {@code bean_instance}). Durations in seconds, Prometheus' base unit; percentiles as one name with a
 * {@code quantile} label, as Prometheus summaries show them. The same names as
 * {@code docs/prometheus-jmx-exporter.yaml} gives them on WildFly, so one dashboard fits both.
 */
final class MetricFigures {

    /** One gauge: its name, its labels, and how to read it. */
    record Figure(String name, Map<String, String> labels, DoubleSupplier value) {
    }

    private final Map<String, String> labels;
    private final List<Figure> figures = new ArrayList<>();

    private MetricFigures(ObjectName name) {
        labels = labels(name);
    }

    /** The figures of {@code bean}, registered as {@code name}; none for a bean of another kind. */
    static List<Figure> of(ObjectName name, Object bean) {
        MetricFigures f = new MetricFigures(name);
        if (bean instanceof QueueMXBean q) {
            // -1: the database cannot be read; NaN leaves a gap in a graph instead of a dip below zero
            f.add("sqlqueue_queue_ready", () -> known(q.getReady()));
            f.add("sqlqueue_queue_delayed", () -> known(q.getDelayed()));
            f.add("sqlqueue_queue_leased", () -> known(q.getLeased()));
            f.add("sqlqueue_queue_dead_letters", () -> known(q.getDeadLettered()));
            f.add("sqlqueue_queue_expired", () -> known(q.getExpired()));
            f.add("sqlqueue_queue_oldest_ready_age_seconds", () -> q.getOldestReadyAgeMillis() / 1000.0);
        } else if (bean instanceof ConsumerMXBean c) {
            // counts since the activation: a redeployment starts them at zero, which rate() takes as a reset
            f.add("sqlqueue_consumer_committed_total", c::getCommitted);
            f.add("sqlqueue_consumer_rolled_back_total", c::getRolledBack);
            f.add("sqlqueue_consumer_dead_lettered_total", c::getDeadLettered);
            f.add("sqlqueue_consumer_expired_total", c::getExpired);
            f.add("sqlqueue_consumer_polls_total", c::getPolls);
            f.add("sqlqueue_consumer_empty_polls_total", c::getEmptyPolls);
            f.add("sqlqueue_consumer_paused_polls_total", c::getPausedPolls);
            f.add("sqlqueue_consumer_in_flight", c::getInFlight);
            f.add("sqlqueue_consumer_paused", () -> c.isPaused() ? 1 : 0);
            f.quantiles("sqlqueue_consumer_latency_seconds", c::getLatencyP50Millis, c::getLatencyP95Millis,
                    c::getLatencyP99Millis);
            f.quantiles("sqlqueue_consumer_processing_seconds", c::getProcessingP50Millis,
                    c::getProcessingP95Millis, c::getProcessingP99Millis);
        } else if (bean instanceof ProducerMXBean p) {
            f.add("sqlqueue_producer_sent_total", p::getSent);
            f.add("sqlqueue_producer_errors_total", p::getErrors);
            f.quantiles("sqlqueue_producer_send_seconds", p::getSendP50Millis, p::getSendP95Millis,
                    p::getSendP99Millis);
        }
        return Collections.unmodifiableList(f.figures);
    }

    private void add(String metric, DoubleSupplier value) {
        figures.add(new Figure(metric, labels, value));
    }

    private void quantiles(String metric, DoubleSupplier p50Millis, DoubleSupplier p95Millis, DoubleSupplier p99Millis) {
        quantile(metric, "0.5", p50Millis);
        quantile(metric, "0.95", p95Millis);
        quantile(metric, "0.99", p99Millis);
    }

    private void quantile(String metric, String quantile, DoubleSupplier millis) {
        Map<String, String> withQuantile = new LinkedHashMap<>(labels);
        withQuantile.put("quantile", quantile);
        figures.add(new Figure(metric, Collections.unmodifiableMap(withQuantile),
                () -> millis.getAsDouble() / 1000.0));
    }

    private static double known(long count) {
        return count < 0 ? Double.NaN : count;
    }

    /**
     * The key properties but {@code type}, unquoted; {@code name} says what it names: the queue
     * (Queue), the bean class (Consumer), the database (Producer). {@code instance} (a second bean of
     * the same name) becomes {@code bean_instance}: Prometheus keeps {@code instance} for the target.
     */
    private static Map<String, String> labels(ObjectName name) {
        String type = name.getKeyProperty("type");
        Map<String, String> labels = new LinkedHashMap<>();
        name.getKeyPropertyList().forEach((key, value) -> {
            if (!key.equals("type")) {
                labels.put(key.equals("name") ? nameLabel(type) : key.equals("instance") ? "bean_instance" : key,
                        unquote(value));
            }
        });
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
