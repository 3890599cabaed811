package io.sqlqueue.inbound;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An activation's circuit breaker ({@code circuitBreakerFailures}): when the bean's own dependency
 * is down, every delivery fails, and without it every message would spend its attempts within
 * minutes and the queue empty into the dead-letter table.
 *
 * <p><b>Closed</b> (the usual state): each failed delivery that is the bean's fault ({@code onMessage}
 * threw, its transaction rolled back) counts against its messages and adds one to a run of
 * consecutive failures; a delivery that succeeds ends the run. The failure that makes the run
 * {@code circuitBreakerFailures} long still counts, and opens the breaker.
 *
 * <p><b>Open</b>: one delivery at a time, each after a pause that starts at {@code pollInterval}
 * (at most {@code circuitBreakerMaxPause}) and doubles, up to {@code circuitBreakerMaxPause}, with
 * each failed delivery that started after it. A failure while open does <em>not</em> count: it
 * most likely is the outage's, not the message's, and counting it would dead-letter, one probe at
 * a time, messages that succeed once the dependency is back. Its messages go back hidden for
 * {@link #postponement()} (two pauses), so that the next delivery takes another message and a
 * message that fails on its own merits cannot keep the breaker open by being tried again and again.
 * The first delivery that succeeds closes it.
 *
 * <p>Adapter faults (the queue's database unreachable) feed nothing here: the poller backs off for
 * those on its own. Each change is logged once: WARNING when it opens, with the last failure, INFO
 * when it closes. Thread-safe: fed by every delivery thread, read by the poller and JMX.
 */
final class CircuitBreaker {

    private static final Logger LOG = QueueActivation.LOG;

    private final int threshold;
    private final long firstPauseNanos;
    private final long maxPauseNanos;
    /** What the log lines name: the queue and the bean. */
    private final String what;
    private final LongSupplier nanoTime;

    /** The current run of failed deliveries; read without the lock on the path of every success. */
    private volatile int consecutiveFailures;
    private volatile boolean open;
    /** When it opened; null while closed. */
    private volatile Instant openedAt;
    /** Guarded by this: the pause before the next delivery while open. */
    private long pauseNanos;
    /** Guarded by this: System.nanoTime() before which no delivery starts while open. */
    private long nextDeliveryNanos;
    /** Guarded by this: failures given back uncounted since it opened, for the log line when it closes. */
    private long givenBack;

    /**
     * @param threshold the consecutive failed deliveries that open it; 0: off, it never opens
     * @param firstPauseMillis the first pause while open (at most {@code maxPauseMillis} is taken)
     * @param maxPauseMillis the longest pause while open
     * @param what the queue and bean, for the log lines
     */
    CircuitBreaker(int threshold, long firstPauseMillis, long maxPauseMillis, String what) {
        this(threshold, firstPauseMillis, maxPauseMillis, what, System::nanoTime);
    }

    /** With the clock of {@code nanoTime}, for tests. */
    CircuitBreaker(int threshold, long firstPauseMillis, long maxPauseMillis, String what, LongSupplier nanoTime) {
        if (threshold < 0 || maxPauseMillis < 1 || firstPauseMillis < 1) {
            throw new IllegalArgumentException("a circuit breaker needs a threshold of 0 or more and pauses of 1 ms"
                    + " or more, was " + threshold + ", " + firstPauseMillis + " and " + maxPauseMillis);
        }
        this.threshold = threshold;
        this.maxPauseNanos = TimeUnit.MILLISECONDS.toNanos(maxPauseMillis);
        this.firstPauseNanos = Math.min(TimeUnit.MILLISECONDS.toNanos(firstPauseMillis), maxPauseNanos);
        this.what = what;
        this.nanoTime = nanoTime;
    }

    /**
     * A delivery failed by the bean's fault, with {@code error}. Returns whether the failure counts
     * against its messages: true while closed (this failure may be the one that opens it), false
     * while open (give them back uncounted, hidden for {@link #postponement()}). Always true when off,
     * which counts the run all the same.
     */
    boolean failed(String error) {
        int run;
        synchronized (this) {
            run = ++consecutiveFailures; // counted when off too: the run shows in JMX, to choose a threshold by
            if (threshold == 0) {
                return true;
            }
            long now = nanoTime.getAsLong();
            if (open) {
                givenBack++;
                // A delivery that started after the pause (not one in flight when it opened): pause longer.
                if (now - nextDeliveryNanos >= 0) {
                    pauseNanos = Math.min(pauseNanos * 2, maxPauseNanos);
                    nextDeliveryNanos = now + pauseNanos;
                }
                return false;
            }
            if (run < threshold) {
                return true;
            }
            openedAt = Instant.now(); // before open: a reader that sees it open sees when
            open = true;
            pauseNanos = firstPauseNanos;
            nextDeliveryNanos = now + pauseNanos;
            givenBack = 0;
        }
        LOG.log(Level.WARNING, () -> "circuit breaker of " + what + " open after " + run + " failed deliveries in a"
                + " row (the last: " + error + "): one delivery at a time, after a pause of "
                + millis(firstPauseNanos) + " ms doubling to " + millis(maxPauseNanos) + " ms; its failures are not"
                + " counted against the messages, which wait in the queue, until a delivery succeeds");
        return true;
    }

    /** A delivery reached the bean and committed (leased: was acknowledged): the run ends, and an open breaker closes. */
    void succeeded() {
        if (consecutiveFailures == 0 && !open) {
            return; // the usual case, without the lock
        }
        Duration wasOpen;
        long uncounted;
        synchronized (this) {
            consecutiveFailures = 0;
            if (!open) {
                return;
            }
            open = false;
            wasOpen = Duration.between(openedAt, Instant.now());
            openedAt = null;
            uncounted = givenBack;
        }
        LOG.info(() -> "circuit breaker of " + what + " closed: a delivery succeeded after " + wasOpen + " open, in"
                + " which " + uncounted + " failed deliveries were given back uncounted; delivering at full speed");
    }

    /** Whether it is open: one delivery at a time, after a pause, failures uncounted. */
    boolean isOpen() {
        return open;
    }

    /** Milliseconds before the next delivery may start: the rest of the pause while open, else 0. */
    synchronized long waitMillis() {
        if (!open) {
            return 0;
        }
        long left = nextDeliveryNanos - nanoTime.getAsLong();
        return left <= 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
    }

    /**
     * How long the messages of a failure while open stay hidden: two pauses, so that the next
     * delivery, one pause later, takes another message.
     */
    synchronized Duration postponement() {
        return Duration.ofNanos(2 * Math.max(pauseNanos, firstPauseNanos));
    }

    /** The current run of failed deliveries; 0 after a success. */
    int consecutiveFailures() {
        return consecutiveFailures;
    }

    /** When it opened; null while closed. */
    Instant openedAt() {
        return openedAt;
    }

    /** Whether it can open at all (circuitBreakerFailures above 0). */
    boolean enabled() {
        return threshold > 0;
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
