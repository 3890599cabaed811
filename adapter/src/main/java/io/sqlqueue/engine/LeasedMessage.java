package io.sqlqueue.engine;

import io.sqlqueue.api.QueueMessage;

/**
 * A message claimed under a lease: invisible to other consumers until the lease runs out, then
 * visible again (a lease of a second or more once a reveal finds it: {@link QueueTable#revealDue}). Only the holder of this lease's token can renew, ack or nack it.
 *
 * @param message    the message; its {@code attempt()} counts this delivery
 * @param leaseToken the token that fences {@link QueueTable#renew}, {@link QueueTable#ack} and {@link QueueTable#nack}
 */
public record LeasedMessage(QueueMessage message, long leaseToken) {
}
