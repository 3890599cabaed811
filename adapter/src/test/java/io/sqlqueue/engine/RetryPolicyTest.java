package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void backoffDoublesUpToTheCap() {
        RetryPolicy p = new RetryPolicy(10, Duration.ofSeconds(1), Duration.ofSeconds(10));
        assertEquals(Duration.ofSeconds(1), p.backoffAfter(1));
        assertEquals(Duration.ofSeconds(2), p.backoffAfter(2));
        assertEquals(Duration.ofSeconds(8), p.backoffAfter(4));
        assertEquals(Duration.ofSeconds(10), p.backoffAfter(5));
        assertEquals(Duration.ofSeconds(10), p.backoffAfter(Integer.MAX_VALUE));
    }

    @Test
    void zeroBackoffStaysZero() {
        assertEquals(Duration.ZERO, new RetryPolicy(3, Duration.ZERO, Duration.ZERO).backoffAfter(3));
    }

    @Test
    void exhaustedAtMaxAttempts() {
        RetryPolicy p = new RetryPolicy(3, Duration.ZERO, Duration.ZERO);
        assertFalse(p.isExhausted(2));
        assertTrue(p.isExhausted(3));
    }

    @Test
    void badSettingsNameTheProblem() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO))
                .getMessage().contains("maxAttempts"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new RetryPolicy(1, Duration.ofSeconds(-1), Duration.ZERO)).getMessage().contains("backoff"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new RetryPolicy(1, Duration.ofSeconds(5), Duration.ofSeconds(1))).getMessage().contains("maximum"));
        assertThrows(IllegalArgumentException.class,
                () -> new RetryPolicy(1, Duration.ZERO, Duration.ofDays(400)));
    }
}
