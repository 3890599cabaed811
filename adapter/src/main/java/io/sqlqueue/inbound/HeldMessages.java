package io.sqlqueue.inbound;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the messages the poller's peek sees ready are held by other transactions, so that every
 * take skips them while the peek cannot tell: a batch reader's or an ordered claim's locks (SQL
 * Server's peek takes shared locks, which their update locks let pass; PostgreSQL's and H2's take
 * none), or with attemptCounting=afterRollback a delivery in progress, whose deleted row
 * PostgreSQL's and H2's peek still see. A bean with a message selector meets the same when the
 * ready messages are none it selects: the peek sees them all, its takes pass them over.
 *
 * <p>Learned from the deliveries' first takes: set when a delivery started for ready messages
 * found nothing to take while nothing else happened since its peek (another delivery may simply
 * have taken them first); cleared by the next take that finds messages, a local send, a reveal, or
 * a peek that finds nothing ready. While it is set, the poller looks as when idle (a peek and one
 * delivery per back-off interval) instead of starting delivery after empty delivery at the speed
 * of the database. Thread-safe.
 */
final class HeldMessages {

    /**
     * Events that may have made messages takeable, counted since the activation began: takes that
     * found messages, committed local sends, reveals.
     */
    private final AtomicLong queueEvents = new AtomicLong();
    /** Deliveries started whose first take has not told what it found yet. */
    private final AtomicInteger firstTakesPending = new AtomicInteger();
    private volatile boolean held;
    /** Wakes the poller, which waits while the messages are held. */
    private final Runnable wakePoller;

    HeldMessages(Runnable wakePoller) {
        this.wakePoller = wakePoller;
    }

    /** Whether the ready messages are held by others, as far as the takes have shown. */
    boolean held() {
        return held;
    }

    /** The queue events so far, read by the poller just before a peek. */
    long queueEvents() {
        return queueEvents.get();
    }

    /** Messages may have become takeable (a take found some, a local send, a reveal): full speed again. */
    void queueChanged() {
        queueEvents.incrementAndGet();
        if (held) {
            held = false;
            wakePoller.run();
        }
    }

    /** A delivery is starting for what a peek saw ready; its first take will tell what it found. */
    void firstTakeStarting() {
        firstTakesPending.incrementAndGet();
    }

    /**
     * A delivery's first take has ended, or the delivery never started: {@code foundNothing} when
     * it ran and took nothing (false when it found messages, or failed before finding out), for
     * messages a peek saw ready when the queue events were at {@code eventsAtPeek}.
     */
    void firstTakeEnded(boolean foundNothing, long eventsAtPeek) {
        firstTakesPending.decrementAndGet();
        if (foundNothing && queueEvents.get() == eventsAtPeek) {
            held = true;
            if (queueEvents.get() != eventsAtPeek) {
                // A take or send came between the check and the flag, and may have read the flag
                // unset: not evidence after all (clearing it wrongly costs one extra delivery).
                held = false;
            }
        }
    }

    /** Deliveries started whose first take has not ended: while the messages are held, the poller starts one at a time. */
    int firstTakesPending() {
        return firstTakesPending.get();
    }

    /** The peek found nothing ready: nothing is held that the poller waits for. */
    void nothingReady() {
        held = false;
    }
}
