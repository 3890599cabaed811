package io.sqlqueue.management;

import io.sqlqueue.engine.AuditEntry;
import io.sqlqueue.engine.DeadLetter;
import io.sqlqueue.engine.DeadLetterGroup;
import io.sqlqueue.engine.DeadLetterMessage;
import io.sqlqueue.engine.DeadLetterReason;
import io.sqlqueue.engine.EditedDeadLetter;
import io.sqlqueue.engine.JournalEntry;
import java.time.Instant;

/**
 * The engine's dead-letter records as the {@link QueueMXBean}'s operations return them: classes
 * with getters, which the MXBean mapping turns into {@code CompositeData} (records it maps only
 * from Java 20), so that a JMX client (the dead-letter console) reads them by item name without
 * the adapter's classes. Times are ISO-8601 instants in UTC ({@link Instant#toString}); a value
 * the row does not have is null.
 */
public final class DeadLetterViews {

    private DeadLetterViews() {
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    /** A group: items {@code reason, errorClass, count, firstFailedAt, lastFailedAt}. */
    public static final class Group {
        private final DeadLetterGroup group;

        public Group(DeadLetterGroup group) {
            this.group = group;
        }

        public String getReason() {
            return group.reason().reason();
        }

        public String getErrorClass() {
            return group.reason().errorClass();
        }

        public long getCount() {
            return group.count();
        }

        public String getFirstFailedAt() {
            return text(group.firstFailedAt());
        }

        public String getLastFailedAt() {
            return text(group.lastFailedAt());
        }
    }

    /**
     * A dead letter without headers and body: items {@code id, priority, enqueuedAt, failedAt,
     * attempts, dedupKey, orderingKey, reason, errorClass}.
     */
    public static class Row {
        private final DeadLetter row;

        public Row(DeadLetter row) {
            this.row = row;
        }

        public long getId() {
            return row.id();
        }

        public int getPriority() {
            return row.priority();
        }

        public String getEnqueuedAt() {
            return text(row.enqueuedAt());
        }

        public String getFailedAt() {
            return text(row.failedAt());
        }

        public int getAttempts() {
            return row.attempts();
        }

        public String getDedupKey() {
            return row.dedupKey();
        }

        public String getOrderingKey() {
            return row.orderingKey();
        }

        public String getReason() {
            return row.reason().reason();
        }

        public String getErrorClass() {
            return row.reason().errorClass();
        }
    }

    /**
     * A dead letter in full: the items of {@link Row}, then {@code headers} (the column's text as
     * stored), {@code headerLines} ({@link HeaderLines}), {@code body} (bytes) and {@code history} (its journal rows, {@link Journal}).
     */
    public static final class Message extends Row {
        private final DeadLetterMessage message;

        public Message(DeadLetterMessage message) {
            super(message.row());
            this.message = message;
        }

        public String getHeaders() {
            return message.headers();
        }

        /** The headers as {@link HeaderLines} text, one {@code name=value} per line: what an edit form shows. */
        public String getHeaderLines() {
            return HeaderLines.format(message.headerMap());
        }

        public byte[] getBody() {
            return message.body().clone();
        }

        public Journal[] getHistory() {
            return message.history().stream().map(Journal::new).toArray(Journal[]::new);
        }
    }

    /**
     * A journal row: items {@code messageId, enqueuedAt, claimedAt, completedAt, attempts,
     * outcome, consumer, traceId}.
     */
    public static final class Journal {
        private final JournalEntry entry;

        public Journal(JournalEntry entry) {
            this.entry = entry;
        }

        public long getMessageId() {
            return entry.messageId();
        }

        public String getEnqueuedAt() {
            return text(entry.enqueuedAt());
        }

        public String getClaimedAt() {
            return text(entry.claimedAt());
        }

        public String getCompletedAt() {
            return text(entry.completedAt());
        }

        public int getAttempts() {
            return entry.attempts();
        }

        public String getOutcome() {
            return entry.outcome().sqlValue();
        }

        public String getConsumer() {
            return entry.consumer();
        }

        public String getTraceId() {
            return entry.traceId();
        }
    }

    /**
     * An audit row: items {@code id, actedAt, actor, operation, queue, count, messageIds} (a
     * selection's, or an edit's {@code "<old> -> <new>"}), {@code reason} and {@code errorClass} (a
     * group's), {@code criterion} (a JMX operation's choice, e.g. {@code oldest failures first}).
     */
    public static final class Audit {
        private final AuditEntry entry;

        public Audit(AuditEntry entry) {
            this.entry = entry;
        }

        public long getId() {
            return entry.id();
        }

        public String getActedAt() {
            return text(entry.actedAt());
        }

        public String getActor() {
            return entry.actor();
        }

        public String getOperation() {
            return entry.operation();
        }

        public String getQueue() {
            return entry.queue();
        }

        public int getCount() {
            return entry.count();
        }

        public String getMessageIds() {
            return entry.messageIds();
        }

        public String getReason() {
            DeadLetterReason group = entry.group();
            return group == null ? null : group.reason();
        }

        public String getErrorClass() {
            DeadLetterReason group = entry.group();
            return group == null ? null : group.errorClass();
        }

        /** Which dead letters a JMX operation chose, when neither ids nor a group say it; else null. */
        public String getCriterion() {
            return entry.criterion();
        }
    }

    /**
     * A dead letter requeued edited as a new message, as it was: items {@code edit} (its
     * {@link Audit} row, whose {@code messageIds} are {@code "<old> -> <new>"}), {@code headers}
     * (the original's column as stored, or null), {@code headerLines} ({@link HeaderLines}),
     * {@code body} (the original's bytes; null for an edit audited by a release that did not keep
     * it) and {@code history} (the journal's rows for the original's id, {@link Journal}).
     */
    public static final class Edited {
        private final EditedDeadLetter edited;

        public Edited(EditedDeadLetter edited) {
            this.edited = edited;
        }

        public Audit getEdit() {
            return new Audit(edited.edit());
        }

        public String getHeaders() {
            return edited.headers();
        }

        public String getHeaderLines() {
            return HeaderLines.format(edited.headerMap());
        }

        public byte[] getBody() {
            return edited.body() == null ? null : edited.body().clone();
        }

        public Journal[] getHistory() {
            return edited.history().stream().map(Journal::new).toArray(Journal[]::new);
        }
    }
}
