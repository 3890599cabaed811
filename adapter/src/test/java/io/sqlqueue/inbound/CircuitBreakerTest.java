package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The circuit breaker's states, pauses and log lines, on a clock the test moves. */
class CircuitBreakerTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final List<LogRecord> logged = Collections.synchronizedList(new ArrayList<>());
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getMessage().startsWith("circuit breaker of delivery of orders")) {
                logged.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        QueueActivation.LOG.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        QueueActivation.LOG.removeHandler(handler);
    }

    private CircuitBreaker breaker(int threshold, long firstPause, long maxPause) {
        return new CircuitBreaker(threshold, firstPause, maxPause, "delivery of orders to OrderBean", now::get);
    }

    private void advance(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void offItNeverOpensAndEveryFailureCountsButTheRunIsShown() {
        CircuitBreaker off = breaker(0, 100, 1000);
        for (int i = 0; i < 50; i++) {
            assertTrue(off.failed("down"), "counted");
        }
        assertFalse(off.isOpen());
        assertFalse(off.enabled());
        assertEquals(50, off.consecutiveFailures(), "the run, to choose a threshold by");
        assertEquals(0, off.waitMillis());
        off.succeeded();
        assertEquals(0, off.consecutiveFailures());
        assertTrue(logged.isEmpty(), "nothing logged: " + logged);
    }

    @Test
    void aRunOfFailuresOpensItTheLastOfThemStillCountedAndASuccessEndsTheRun() {
        CircuitBreaker b = breaker(3, 100, 1000);
        assertTrue(b.failed("down"));
        assertTrue(b.failed("down"));
        b.succeeded();
        assertEquals(0, b.consecutiveFailures(), "a success ends the run");
        assertTrue(b.failed("down"));
        assertTrue(b.failed("down"));
        assertFalse(b.isOpen());
        assertNull(b.openedAt());
        assertTrue(b.failed("java.net.ConnectException: the stock service"), "the failure that opens it counts");
        assertTrue(b.isOpen());
        assertNotNull(b.openedAt());
        assertEquals(3, b.consecutiveFailures());
        assertEquals(100, b.waitMillis(), "the first pause before the next delivery");
        assertEquals(Duration.ofMillis(200), b.postponement(), "two pauses: the next delivery takes another message");
    }

    @Test
    void openFailuresAreNotCountedAndThePauseDoublesOncePerPauseUpToItsMaximum() {
        CircuitBreaker b = breaker(1, 100, 500);
        assertTrue(b.failed("down"));
        assertFalse(b.failed("down"), "in flight when it opened: not counted");
        assertEquals(100, b.waitMillis(), "a delivery in flight when it opened does not lengthen the pause");
        advance(100);
        assertEquals(0, b.waitMillis(), "the pause is over: the next delivery may start");
        assertFalse(b.failed("down"));
        assertEquals(200, b.waitMillis(), "doubled");
        assertEquals(Duration.ofMillis(400), b.postponement());
        advance(200);
        assertFalse(b.failed("down"));
        assertEquals(400, b.waitMillis());
        advance(400);
        assertFalse(b.failed("down"));
        assertEquals(500, b.waitMillis(), "capped at the maximum");
        advance(500);
        assertFalse(b.failed("down"));
        assertEquals(500, b.waitMillis());
        assertEquals(Duration.ofMillis(1000), b.postponement());
        assertEquals(6, b.consecutiveFailures(), "the run goes on while open");
    }

    @Test
    void theFirstSuccessClosesItAndANewRunStartsFromNothing() {
        CircuitBreaker b = breaker(2, 100, 1000);
        b.failed("down");
        b.failed("down");
        advance(100);
        b.failed("down");
        assertTrue(b.isOpen());
        b.succeeded();
        assertFalse(b.isOpen());
        assertNull(b.openedAt());
        assertEquals(0, b.consecutiveFailures());
        assertEquals(0, b.waitMillis(), "no pause once closed");
        assertTrue(b.failed("down"), "closed: counted again");
        assertFalse(b.isOpen(), "one failure is no run of two");
        assertTrue(b.failed("down"));
        assertTrue(b.isOpen());
        assertEquals(100, b.waitMillis(), "the pause starts again from the first");
    }

    @Test
    void eachChangeIsLoggedOnceWarningWithTheLastFailureWhenItOpensInfoWhenItCloses() {
        CircuitBreaker b = breaker(2, 100, 1000);
        b.failed("first");
        b.failed("java.net.ConnectException: the stock service is down");
        b.failed("again");
        advance(100);
        b.failed("and again");
        b.succeeded();
        b.succeeded();
        assertEquals(2, logged.size(), logged.stream().map(LogRecord::getMessage).toList().toString());
        assertEquals(Level.WARNING, logged.get(0).getLevel());
        assertTrue(logged.get(0).getMessage().contains("open after 2 failed deliveries in a row (the last:"
                + " java.net.ConnectException: the stock service is down)"), logged.get(0).getMessage());
        assertTrue(logged.get(0).getMessage().contains("after a pause of 100 ms doubling to 1000 ms"),
                logged.get(0).getMessage());
        assertEquals(Level.INFO, logged.get(1).getLevel());
        assertTrue(logged.get(1).getMessage().contains("closed: a delivery succeeded after"), logged.get(1).getMessage());
        assertTrue(logged.get(1).getMessage().contains("2 failed deliveries were given back uncounted"),
                logged.get(1).getMessage());
    }

    @Test
    void theFirstPauseIsAtMostTheMaximum() {
        CircuitBreaker b = breaker(1, 5000, 300);
        b.failed("down");
        assertEquals(300, b.waitMillis());
        assertThrows(IllegalArgumentException.class, () -> breaker(-1, 100, 1000));
    }
}
