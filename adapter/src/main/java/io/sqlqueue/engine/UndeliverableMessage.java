package io.sqlqueue.engine;

import java.time.Instant;

/**
 * A queued row the adapter cannot turn into a message (its {@code headers} are not a flat JSON
 * object of strings, say): a claim or lease that meets one moves it to the dead-letter table, with
 * {@code reason} as its {@code last_error}, in the same transaction, and never hands it to a
 * consumer. Such a row is written by hand or by another program; nothing the adapter sends is.
 *
 * @param id         the row's id
 * @param enqueuedAt its {@code enqueued_at}, or the time it was found when that could not be read
 * @param attempt    the delivery this would have been (1 or more), for the completion journal
 * @param reason     what is wrong, naming the column
 */
public record UndeliverableMessage(long id, Instant enqueuedAt, int attempt, String reason) {
}
