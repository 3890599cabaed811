package io.sqlqueue.engine;

/** What recording a failed delivery did. */
public enum FailureOutcome {
    /** The message is back in the queue, visible again after the retry back-off. */
    RETRY_SCHEDULED,
    /** The message used up its attempts and moved to the dead-letter table. */
    DEAD_LETTERED,
    /**
     * Nothing was changed: the message is gone (another consumer completed it) or no longer in
     * the state this delivery saw (its lease ran out and another consumer holds it now).
     */
    STALE
}
