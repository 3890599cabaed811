package io.sqlqueue.management;

import java.util.Arrays;

/**
 * The last {@value #CAPACITY} durations, for percentiles over a sliding window: recording is a
 * short synchronized write into a ring, reading sorts a copy. Thread-safe.
 */
public final class RecentDurations {

    public static final int CAPACITY = 1024;

    private final long[] nanos = new long[CAPACITY];
    private int next;
    private int size;

    public synchronized void record(long durationNanos) {
        nanos[next] = Math.max(0, durationNanos);
        next = (next + 1) % CAPACITY;
        size = Math.min(size + 1, CAPACITY);
    }

    /** The {@code p}-th percentile (0 to 100] in milliseconds, by nearest rank; 0 when nothing was recorded. */
    public double percentileMillis(double p) {
        long[] copy;
        synchronized (this) {
            copy = Arrays.copyOf(nanos, size);
        }
        if (copy.length == 0) {
            return 0;
        }
        Arrays.sort(copy);
        int rank = (int) Math.ceil(p / 100 * copy.length);
        return copy[Math.max(0, Math.min(copy.length - 1, rank - 1))] / 1e6;
    }
}
