package io.sqlqueue.engine;

import io.sqlqueue.api.QueueMessage;

/**
 * A message taken by {@link QueueTable#hold}: its row locked by the caller's transaction, as it
 * was. Deleted by {@link QueueTable#deleteHeld} in that transaction, or free again when it ends.
 *
 * @param message  the message; its {@code attempt()} counts this delivery
 * @param priority its priority: with the id, its place in the dequeue order, where the next hold
 *                 of the same transaction goes on from
 */
public record HeldMessage(QueueMessage message, int priority) {
}
