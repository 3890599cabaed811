package io.sqlqueue.engine;

import java.time.Duration;

/**
 * A snapshot of one queue, read without blocking consumers (so it may be slightly stale).
 *
 * @param ready           visible now, including expired leases
 * @param delayed         not yet visible: delayed at enqueue or waiting out a retry back-off
 * @param leased          claimed under a lease that has not run out
 * @param deadLettered    rows in the dead-letter table
 * @param oldestReadyAge  how long the oldest ready message has been queued; zero when none is ready
 * @param expired         messages whose time to live has run out, still in the queue table (counted
 *                        in ready, delayed or leased too) until a consumer or the expiry sweep removes them
 */
public record QueueStats(long ready, long delayed, long leased, long deadLettered, Duration oldestReadyAge,
        long expired) {
}
