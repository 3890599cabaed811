package io.sqlqueue.engine;

import java.time.Instant;

/**
 * One row of a dead-letter table without its headers and body, as a list of them shows it.
 *
 * @param id          the message's id in the queue it failed in
 * @param attempts    the deliveries it had
 * @param dedupKey    null when it has none
 * @param orderingKey null when it has none
 */
public record DeadLetter(long id, int priority, Instant enqueuedAt, Instant failedAt, int attempts, String dedupKey,
        String orderingKey, DeadLetterReason reason) {
}
