package io.sqlqueue.management;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an activation's two health checks report, decided from the facts its consumer bean records.
 * <p>
 * <b>Readiness</b> is up when the database answered the poller's last look at the queue: down before
 * the first look (the activation is still starting) and from a failed look until the next one that
 * succeeds. A paused activation stays ready: pausing is what an operator does to stop consumption
 * while producers go on sending (a downstream system is away, a migration runs), and a readiness
 * that went down with it would take the whole server out of its load balancer, senders included.
 * {@code paused} is in the data, and in JMX and {@code /metrics}, for whoever alerts on it. A paused
 * poller does not look at the database, so readiness keeps the verdict of the last look meanwhile.
 * <p>
 * <b>Liveness</b> is up while the poller turns: its last turn (a look, a failed look, a paused turn)
 * or a delivery's progress is at most {@link #livenessLimit} ago, or deliveries are in the bean's
 * hands (the poller then waits for a free slot, by design; a bean that hangs shows in InFlight and
 * the processing times, and a restart would not be ours to ask for). An idle or paused poller turns
 * at least every maxPollInterval; the margin covers a connection wait in the server's pool (60 s by
 * default on Payara) and a connect time-out.
 * <p>
 * An open circuit breaker leaves readiness up too, for the same reason as a pause: the bean's own
 * dependency is down, on every server alike, and taking this one out of its load balancer would
 * stop its senders and bring nothing back. {@code circuit} ({@code off}, {@code closed},
 * {@code open}) is in the data, and CircuitOpen in JMX and {@code /metrics}.
 */
public final class ConsumerHealth {

    /** Added to twice the maxPollInterval for the liveness limit; see the class comment. */
    static final Duration LIVENESS_MARGIN = Duration.ofMinutes(2);

    /** What the poller's last look at the database found. */
    public enum LastLook {
        /** No look yet: the activation is starting (an application's own data source waits up to 5 s). */
        NONE_YET,
        ANSWERED,
        FAILED
    }

    /** The activation's circuit breaker. */
    public enum Circuit {
        /** circuitBreakerFailures is 0. */
        OFF,
        CLOSED,
        OPEN;

        /** As the check's data shows it. */
        String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One reading of an activation's state.
     *
     * @param lastError            the bean's LastError: why the last look failed, when it did
     * @param millisSinceLastTurn  since the poller's last turn or a delivery's progress (or the activation)
     */
    public record Facts(String queue, String database, String bean, boolean paused, Circuit circuit, LastLook lastLook,
            String lastError, long millisSinceLastTurn, int inFlight, long maxPollIntervalMillis) {
    }

    private ConsumerHealth() {
    }

    /** How long the poller may go without a turn before liveness is down. */
    public static long livenessLimit(long maxPollIntervalMillis) {
        return 2 * maxPollIntervalMillis + LIVENESS_MARGIN.toMillis();
    }

    public static HealthReport readiness(Facts f) {
        boolean up = f.lastLook() == LastLook.ANSWERED;
        Map<String, Object> data = identity(f);
        data.put("lastLook", switch (f.lastLook()) {
            case NONE_YET -> "none yet";
            case ANSWERED -> "answered";
            case FAILED -> "failed";
        });
        data.put("paused", f.paused());
        data.put("circuit", f.circuit().text());
        if (f.lastLook() == LastLook.FAILED) {
            data.put("error", f.lastError());
        }
        return new HealthReport(up, data);
    }

    public static HealthReport liveness(Facts f) {
        long limit = livenessLimit(f.maxPollIntervalMillis());
        boolean up = f.millisSinceLastTurn() <= limit || f.inFlight() > 0;
        Map<String, Object> data = identity(f);
        data.put("lastTurnMillisAgo", f.millisSinceLastTurn());
        data.put("limitMillis", limit);
        data.put("inFlight", f.inFlight());
        return new HealthReport(up, data);
    }

    private static Map<String, Object> identity(Facts f) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("queue", f.queue());
        data.put("database", f.database());
        data.put("bean", f.bean());
        return data;
    }
}
