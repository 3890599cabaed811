package io.sqlqueue.it.bench;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Commits counted as they happen, by the beans and by the raw loop alike: how many messages, when
 * the last one committed, and each thread's cycle time (from one of its commits to its next, so
 * claim, work, commit and whatever the adapter adds between deliveries).
 */
final class Tally {

    private final AtomicLong messages = new AtomicLong();
    private volatile long lastCommitNanos;
    private final Map<Thread, Long> previousCommit = new ConcurrentHashMap<>();
    private final Samples cycles = new Samples();

    /** Before a run: no messages yet, and no cycle spans the pause between runs. */
    void reset() {
        messages.set(0);
        previousCommit.clear();
    }

    void committed(int n) {
        long now = System.nanoTime();
        Long previous = previousCommit.put(Thread.currentThread(), now);
        if (previous != null) {
            cycles.add(now - previous);
        }
        lastCommitNanos = now;
        messages.addAndGet(n);
    }

    /** Waits until {@code n} messages committed; returns the time of the last commit. */
    long awaitCommitted(long n, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (messages.get() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + messages.get() + " of " + n + " messages committed in " + timeout);
            }
            LockSupport.parkNanos(200_000);
        }
        return lastCommitNanos;
    }

    Samples cycles() {
        return cycles;
    }
}
