package io.sqlqueue.outbound;

import io.sqlqueue.management.HealthReport;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Whether a connection factory can send now, for its readiness check. Up while its sends succeed:
 * then no probe, no connection opened for the check. After a failed send, the check asks the
 * database itself: one connection from the factory's data source, validated and closed, at most
 * one at a time and at most every {@link #PROBE_INTERVAL}, the last verdict repeated in between.
 * The probe is what brings readiness back: a failure remembered until the next send would keep a
 * server out of its load balancer, where no send would come to clear it. A failure the probe
 * does not confirm (a statement the database refused, a missing queue table) is no reason to be
 * unready, and the check is up again. Sends never wait for a probe. Thread-safe.
 */
final class FactoryReadiness {

    static final Duration PROBE_INTERVAL = Duration.ofSeconds(5);

    private final String factory;
    private final BooleanSupplier databaseAnswers;
    private final LongSupplier nanoClock;
    /** The last send's failure while no send or probe has succeeded since; null: none. */
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final ReentrantLock probing = new ReentrantLock();
    private long probedAtNanos; // guarded by probing
    private boolean probedOnce; // guarded by probing

    /**
     * @param databaseAnswers opens one connection, validates it and closes it; false when any step fails
     * @param nanoClock       {@link System#nanoTime} but in tests
     */
    FactoryReadiness(String factory, BooleanSupplier databaseAnswers, LongSupplier nanoClock) {
        this.factory = factory;
        this.databaseAnswers = databaseAnswers;
        this.nanoClock = nanoClock;
    }

    void sendSucceeded() {
        failure.set(null);
    }

    void sendFailed(String error) {
        failure.set(error == null ? "" : error);
    }

    /** Up unless a send failed and the database did not answer the latest probe since. */
    HealthReport readiness() {
        String seen = failure.get();
        if (seen != null && probing.tryLock()) { // another request's probe running: its verdict comes next time
            try {
                long now = nanoClock.getAsLong();
                if (!probedOnce || now - probedAtNanos >= PROBE_INTERVAL.toNanos()) {
                    probedOnce = true;
                    probedAtNanos = now;
                    if (databaseAnswers.getAsBoolean()) {
                        failure.compareAndSet(seen, null); // unless a send failed meanwhile
                    }
                }
            } finally {
                probing.unlock();
            }
        }
        String failed = failure.get();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("factory", factory);
        data.put("databaseUnreachable", failed != null);
        if (failed != null) {
            data.put("error", failed);
        }
        return new HealthReport(failed == null, data);
    }
}
