package io.sqlqueue.api;

import java.util.List;

/**
 * Like {@link QueueListener}, but receives up to the activation's {@code batchSize} messages in
 * one call and one transaction: they commit together, or all come back together. Use it when
 * per-message transactions cost too much; a failing message fails its whole batch until it is
 * dead-lettered.
 */
public interface BatchQueueListener {

    /** At least one message, at most {@code batchSize}, highest priority first, FIFO within a priority. */
    void onMessages(List<QueueMessage> messages);
}
