package io.sqlqueue.engine;

import java.time.Duration;

/**
 * How failed deliveries are retried: at most {@code maxAttempts} deliveries, the n-th retry
 * waiting {@code backoff × 2^(n-1)}, capped at {@code maxBackoff}. After the last attempt the
 * message moves to the dead-letter table.
 *
 * @param maxAttempts deliveries before dead-lettering, at least 1
 * @param backoff     wait before the first retry, zero or more
 * @param maxBackoff  the cap on the wait, at least {@code backoff}
 */
public record RetryPolicy(int maxAttempts, Duration backoff, Duration maxBackoff) {

    /** The longest back-off accepted (T-SQL's DATEADD takes whole seconds as an INT). */
    public static final Duration MAX_BACKOFF = Duration.ofDays(365);

    /** 5 attempts, 1 s doubling up to 5 min. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(5, Duration.ofSeconds(1), Duration.ofMinutes(5));

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        if (backoff == null || backoff.isNegative()) {
            throw new IllegalArgumentException("retry backoff must be zero or positive, was " + backoff);
        }
        if (maxBackoff == null || maxBackoff.compareTo(backoff) < 0 || maxBackoff.compareTo(MAX_BACKOFF) > 0) {
            throw new IllegalArgumentException("maximum retry backoff must be between the backoff (" + backoff
                    + ") and " + MAX_BACKOFF + ", was " + maxBackoff);
        }
    }

    /** The wait before the next delivery after {@code failedAttempts} failures (1 or more). */
    public Duration backoffAfter(int failedAttempts) {
        long millis = backoff.toMillis();
        long cap = maxBackoff.toMillis();
        for (int i = 1; i < failedAttempts && millis < cap; i++) {
            millis *= 2;
        }
        return Duration.ofMillis(Math.min(millis, cap));
    }

    /** Whether a message that has failed {@code failedAttempts} times goes to the dead-letter table. */
    public boolean isExhausted(int failedAttempts) {
        return failedAttempts >= maxAttempts;
    }
}
