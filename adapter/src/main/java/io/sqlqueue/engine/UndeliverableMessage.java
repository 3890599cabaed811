package io.sqlqueue.engine;

import java.time.Instant;

/**
 * A queued row a claim or lease moved to the dead-letter table instead of handing it to a
 * consumer, with {@code reason} as its {@code last_error}, in the same transaction: a row the
 * adapter cannot turn into a message (its {@code headers} are not a flat JSON object of strings,
 * say: written by hand or by another program), or a leased message whose every attempt ended
 * with its lease running out (its deliveries killed the consumer's server).
 *
 * @param id         the row's id
 * @param enqueuedAt its {@code enqueued_at}, or the time it was found when that could not be read
 * @param attempt    the delivery this would have been (1 or more), for the completion journal
 * @param reason     what is wrong, naming the column
 */
public record UndeliverableMessage(long id, Instant enqueuedAt, int attempt, String reason) {
}
