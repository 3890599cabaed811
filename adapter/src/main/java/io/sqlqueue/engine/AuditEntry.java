package io.sqlqueue.engine;

import java.time.Instant;

/**
 * One row of the {@link AuditTrail}: one committed change to a queue's dead letters.
 *
 * @param actedAt    the database clock when the change was written
 * @param operation  {@link AuditTrail#REQUEUE} or {@link AuditTrail#DELETE}
 * @param queue      the queue's name as configured
 * @param count      how many dead letters the change moved or deleted
 * @param messageIds the ids of a selection, comma-separated (cut at {@value AuditTrail#MAX_IDS_LENGTH}
 *                   characters, ending in {@code …}), or null for a group
 * @param group      the reason of a group, or null for a selection
 */
public record AuditEntry(long id, Instant actedAt, String actor, String operation, String queue, int count,
        String messageIds, DeadLetterReason group) {
}
