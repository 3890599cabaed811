package io.sqlqueue.engine;

/**
 * The statements with which an operator browses and changes one queue's dead letters
 * ({@link DeadLetters}): those that depend on a group or a selection's size are written per call,
 * as an operator's actions are few. Paging is the SQL standard's {@code OFFSET … FETCH NEXT}, which
 * H2, PostgreSQL and SQL Server (2012 and later) all take with parameters.
 */
final class DeadLetterSql {

    /** The columns of a {@link DeadLetter}, in the order {@link DeadLetters} reads them. */
    static final String ROW_COLUMNS =
            "id, priority, enqueued_at, failed_at, attempts, dedup_key, ordering_key, last_error, error_class";

    private final Dialect dialect;
    private final String queue;
    private final String deadLetters;
    final SqlTemplate groups;
    final SqlTemplate page;
    final SqlTemplate message;
    final SqlTemplate history;

    DeadLetterSql(Dialect d, TableName queue, TableName deadLetters, TableName journal) {
        this.dialect = d;
        this.queue = d.qualified(queue);
        this.deadLetters = d.qualified(deadLetters);
        String dlq = this.deadLetters;
        groups = new SqlTemplate("SELECT last_error, error_class, COUNT(*), MIN(failed_at), MAX(failed_at) FROM " + dlq
                + " GROUP BY last_error, error_class ORDER BY COUNT(*) DESC, MAX(failed_at) DESC"
                + " OFFSET 0 ROWS FETCH NEXT :limit ROWS ONLY");
        page = new SqlTemplate(pageOf(""));
        message = new SqlTemplate("SELECT " + ROW_COLUMNS + ", headers, body FROM " + dlq
                + " WHERE id = :id ORDER BY failed_at DESC");
        history = new SqlTemplate("SELECT " + Dialect.JOURNAL_COLUMNS + " FROM " + d.qualified(journal)
                + " WHERE message_id = :id ORDER BY completed_at");
    }

    /** A page of the dead letters that have {@code reason}, newest failure first: :offset, :limit, the reason's. */
    SqlTemplate pageOf(DeadLetterReason reason) {
        return new SqlTemplate(pageOf(" WHERE " + reason.condition("")));
    }

    private String pageOf(String where) {
        return "SELECT " + ROW_COLUMNS + " FROM " + deadLetters + where
                + " ORDER BY failed_at DESC, id DESC OFFSET :offset ROWS FETCH NEXT :limit ROWS ONLY";
    }

    /** Deletes the dead letters whose id is in the list :ids of {@code count} ({@link SqlTemplate#setLongList}). */
    SqlTemplate deleteIds(int count) {
        return new SqlTemplate("DELETE FROM " + deadLetters + " WHERE id IN (" + SqlTemplate.list("ids", count) + ")");
    }

    /** Deletes up to :n (a literal) dead letters that have {@code reason}, skipping held rows where the database can. */
    SqlTemplate deleteGroup(DeadLetterReason reason) {
        return new SqlTemplate(dialect.someRows(Dml.Change.delete(deadLetters), reason.condition(""), "failed_at", null)
                .statement());
    }

    /** The requeue of the dead letters whose id is in the list :ids of {@code count}. */
    Dialect.Requeue requeueIds(int count) {
        return dialect.requeue(queue, deadLetters, " AND d.id IN (" + SqlTemplate.list("ids", count) + ")");
    }

    /** The requeue of the dead letters that have {@code reason}. */
    Dialect.Requeue requeueGroup(DeadLetterReason reason) {
        return dialect.requeue(queue, deadLetters, " AND " + reason.condition("d."));
    }
}
