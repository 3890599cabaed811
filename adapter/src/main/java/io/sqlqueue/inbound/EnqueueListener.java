package io.sqlqueue.inbound;

/**
 * Told when an enqueue through this adapter's connection factory has committed, so that the
 * queue's pollers can look at once instead of waiting for their next poll.
 */
@FunctionalInterface
public interface EnqueueListener {

    /** Called after the commit, on the committing thread: return quickly. */
    void enqueueCommitted(String queue);
}
