package io.sqlqueue.engine;

import java.time.Instant;

/**
 * One row of the {@link AuditTrail}: one committed change to a queue's dead letters. Which dead
 * letters it changed is said by exactly one of {@code messageIds}, {@code group} and {@code criterion}.
 *
 * @param actedAt    the database clock when the change was written
 * @param actor      who made it: the console's user, a JMX caller's principal, or
 *                   {@value AuditTrail#JMX_ACTOR} for a JMX call without one
 * @param operation  {@link AuditTrail#REQUEUE}, {@link AuditTrail#DELETE} or {@link AuditTrail#EDIT}
 * @param queue      the queue's name as configured
 * @param count      how many dead letters the change moved or deleted
 * @param messageIds the ids of a selection, comma-separated (cut at {@value AuditTrail#MAX_IDS_LENGTH}
 *                   characters, ending in {@code …}), or an edit's {@code "<old id> -> <new id>"}; else null
 * @param group      the reason of a group, or null
 * @param criterion  which dead letters a JMX operation chose, e.g. {@value AuditTrail#OLDEST_FIRST} or
 *                   {@code failed before 2026-11-20T10:00:00Z}; else null
 */
public record AuditEntry(long id, Instant actedAt, String actor, String operation, String queue, int count,
        String messageIds, DeadLetterReason group, String criterion) {
}
