package io.sqlqueue.engine;

import java.time.Instant;

/**
 * The dead letters of one queue that share a {@link DeadLetterReason}: how many, and when the
 * first and the last of them failed ({@code failed_at}, the database clock).
 */
public record DeadLetterGroup(DeadLetterReason reason, long count, Instant firstFailedAt, Instant lastFailedAt) {
}
