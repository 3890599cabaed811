package io.sqlqueue.engine;

/**
 * What a cancel did ({@link QueueTable#cancel}, {@link QueueTable#cancelByDedupKey}).
 *
 * @param outcome   what became of the message
 * @param messageId its id: the one asked for, or for a cancel by dedup key the one found in
 *                  delivery; 0 when not known (a cancel by key that removed or found nothing)
 */
public record Cancellation(Outcome outcome, long messageId) {

    /** What became of the message. */
    public enum Outcome {
        /** Deleted in the caller's transaction: gone once it commits, back as it was if it rolls back. */
        CANCELLED,
        /** The queue has no such message (as last committed): nothing was changed. */
        NOT_QUEUED,
        /** A consumer's lease, which has not run out, holds it: nothing was changed. */
        LEASED,
        /** Another transaction holds it (a consumer's, delivering it): nothing was changed, nothing waited for. */
        HELD
    }
}
