package io.sqlqueue.management;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One health check's verdict: up or down, and the data that explains it (strings, numbers and
 * booleans, never a secret). Neutral of any health API: {@link PayaraHealth} turns it into a
 * MicroProfile {@code HealthCheckResponse}.
 *
 * @param up   whether the check passes
 * @param data what the check looked at, in a stable order and under stable keys
 */
public record HealthReport(boolean up, Map<String, Object> data) {

    public HealthReport {
        data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }

    /** {@code UP} or {@code DOWN} and the data, as the beans' Readiness and Liveness attributes show it. */
    public String summary() {
        return (up ? "UP " : "DOWN ") + data;
    }
}
