package io.sqlqueue.engine;

import io.sqlqueue.api.QueueMessage;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One finished delivery, as {@link CompletionJournal} records it.
 *
 * @param messageId   the message's id
 * @param enqueuedAt  when it was enqueued ({@link QueueMessage#enqueuedAt()}, the database clock)
 * @param claimedAt   when this delivery claimed it (the consumer's clock)
 * @param completedAt when this delivery finished (the consumer's clock)
 * @param attempts    deliveries of the message so far, this one included ({@link QueueMessage#attempt()})
 * @param outcome     how the delivery ended
 * @param consumer    who delivered it, e.g. server name and thread; cut to {@value #MAX_CONSUMER_LENGTH}
 *                    characters (a long thread name must not fail a delivery); may be {@code null}
 * @param traceId     the producer's W3C trace id (32 lower-case hex digits) from the message's
 *                    {@value #TRACEPARENT} header, or {@code null} when it has none (or none valid)
 */
public record JournalEntry(long messageId, Instant enqueuedAt, Instant claimedAt, Instant completedAt, int attempts,
        Outcome outcome, String consumer, String traceId) {

    /** The length of the {@code consumer} column. */
    public static final int MAX_CONSUMER_LENGTH = 200;
    /** The header the adapter stores a sender's W3C trace context in (beside {@code tracestate}). */
    public static final String TRACEPARENT = "traceparent";
    /** version-traceid-parentid-flags (W3C Trace Context, level 1); an all-zero trace id is invalid. */
    private static final Pattern TRACEPARENT_FORMAT =
            Pattern.compile("[0-9a-f]{2}-(?!0{32})([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}(-.*)?");

    /**
     * @throws NullPointerException     for a missing time or outcome
     * @throws IllegalArgumentException for {@code attempts} below 1
     */
    public JournalEntry {
        Objects.requireNonNull(enqueuedAt, "enqueuedAt");
        Objects.requireNonNull(claimedAt, "claimedAt");
        Objects.requireNonNull(completedAt, "completedAt");
        Objects.requireNonNull(outcome, "outcome");
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts counts this delivery, so it is at least 1, was " + attempts);
        }
        if (consumer != null && consumer.length() > MAX_CONSUMER_LENGTH) {
            consumer = consumer.substring(0, MAX_CONSUMER_LENGTH);
        }
        if (traceId != null && !traceId.matches("(?!0{32})[0-9a-f]{32}")) {
            throw new IllegalArgumentException("traceId must be 32 lower-case hex digits, not all zero, was '"
                    + traceId + "'");
        }
    }

    /** An entry without a trace id. */
    public JournalEntry(long messageId, Instant enqueuedAt, Instant claimedAt, Instant completedAt, int attempts,
            Outcome outcome, String consumer) {
        this(messageId, enqueuedAt, claimedAt, completedAt, attempts, outcome, consumer, null);
    }

    /**
     * The trace id of the {@value #TRACEPARENT} header in {@code headers}, or {@code null} when
     * there is none or it is not a valid W3C traceparent (a header set by hand must not fail a
     * delivery's journal row).
     */
    public static String traceIdOf(Map<String, String> headers) {
        String traceparent = headers.get(TRACEPARENT);
        if (traceparent == null) {
            return null;
        }
        var m = TRACEPARENT_FORMAT.matcher(traceparent);
        return m.matches() ? m.group(1) : null;
    }

    /** The entry for one delivery of {@code message}. */
    public static JournalEntry of(QueueMessage message, Outcome outcome, Instant claimedAt, Instant completedAt,
            String consumer) {
        return new JournalEntry(message.id(), message.enqueuedAt(), claimedAt, completedAt, message.attempt(), outcome,
                consumer, traceIdOf(message.headers()));
    }

    /** How a delivery ended; stored as {@link #sqlValue()}. */
    public enum Outcome {
        /** The consumer's transaction committed (or its lease was acknowledged). */
        COMPLETED("completed"),
        /** The delivery failed on the message's last attempt and it moved to the dead-letter table. */
        DEAD_LETTERED("dead_lettered");

        private final String sqlValue;

        Outcome(String sqlValue) {
            this.sqlValue = sqlValue;
        }

        /** The value of the {@code outcome} column. */
        public String sqlValue() {
            return sqlValue;
        }

        /**
         * The outcome of an {@code outcome} column's value.
         *
         * @throws IllegalArgumentException for a value the column's CHECK does not allow
         */
        public static Outcome of(String sqlValue) {
            for (Outcome o : values()) {
                if (o.sqlValue.equals(sqlValue)) {
                    return o;
                }
            }
            throw new IllegalArgumentException("no journal outcome '" + sqlValue + "'");
        }
    }
}
