package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The operator's tools for one queue's dead-letter table: put dead letters back into the queue
 * once their cause is fixed, and purge old ones (the JMX operations); and, for the dead-letter
 * console, browse them ({@link #groups}, {@link #list}, {@link #read}, {@link #readEdited}) and
 * requeue, delete or edit a selection or a group. Every change is made for a named actor and audited
 * ({@link AuditTrail}) in its own transaction. Obtained from {@link QueueTable#deadLetters()}.
 *
 * <p><b>Transactions.</b> The browsing reads run in the caller's transaction. Unlike the rest of
 * the engine, the changes manage their own transactions: they work in batches of a bounded size,
 * each batch a transaction of its own (one statement, except a requeue on H2; plus its audit row,
 * none when it changed nothing), committed before the next starts, so that none ever holds many
 * locks for long; a selection is one batch. The connection's auto-commit mode is restored afterwards. If a batch fails it is
 * rolled back and the exception propagates; the batches before it stay committed (their count is
 * logged). Call them on a connection that is not part of another transaction.
 *
 * <p><b>Concurrency.</b> Consumers may keep working meanwhile. On SQL Server and PostgreSQL rows
 * other transactions hold are skipped, so two operators can run the same operation at once without
 * moving anything twice; on H2 they wait for each other.
 *
 * <p><b>Errors.</b> Bad arguments fail before any SQL runs; database errors propagate as
 * {@link SQLException}.
 *
 * <p><b>Threads.</b> Immutable and thread-safe; use each connection on one thread at a time.
 */
public final class DeadLetters {

    /** Dead letters moved per transaction: bodies may be large, so batches stay small. */
    public static final int REQUEUE_BATCH = 100;
    /** Dead letters deleted per transaction (well below SQL Server's lock-escalation threshold). */
    public static final int PURGE_BATCH = 500;

    /** Tries of one requeue batch that meets a message enqueued meanwhile with the same dedup key. */
    private static final int TRIES_PER_BATCH = 3;

    private static final Logger LOG = Logger.getLogger(DeadLetters.class.getName());

    private final Dialect dialect;
    private final TableName queue;
    private final TableName table;
    private final QueueSql sql;
    private final int requeueBatch;
    private final int purgeBatch;
    private final TableName journal;
    private final DeadLetterSql browsing;
    private final AuditTrail audit;

    DeadLetters(Dialect dialect, TableName queue, TableName table, QueueSql sql) {
        this(dialect, queue, table, sql, REQUEUE_BATCH, PURGE_BATCH);
    }

    private DeadLetters(Dialect dialect, TableName queue, TableName table, QueueSql sql, int requeueBatch,
            int purgeBatch) {
        this.dialect = dialect;
        this.queue = queue;
        this.table = table;
        this.sql = sql;
        this.requeueBatch = requeueBatch;
        this.purgeBatch = purgeBatch;
        this.journal = queue.withSuffix(CompletionJournal.SUFFIX);
        this.browsing = new DeadLetterSql(dialect, queue, table, journal);
        this.audit = new AuditTrail(dialect, queue);
    }

    /** The same operations with other batch sizes (tests show the batching with a few rows). */
    DeadLetters withBatchSizes(int requeueBatch, int purgeBatch) {
        return new DeadLetters(dialect, queue, table, sql, requeueBatch, purgeBatch);
    }

    /** The dead-letter table. */
    public TableName name() {
        return table;
    }

    /** Where the changes are written ({@link #requeue(Connection, List, String)} and the others). */
    public AuditTrail auditTrail() {
        return audit;
    }

    /**
     * Moves up to {@code max} dead letters back into the queue, oldest failure first, and returns
     * how many it moved.
     *
     * <p>A moved message is ready at once with {@code attempts} 0, so it gets the full
     * {@code maxAttempts} again. It keeps its body, headers, priority, dedup key,
     * {@code enqueued_at} (latency keeps counting from the first enqueue) and {@code last_error}
     * (the reason it was dead-lettered, until a new failure replaces it). It gets a <b>new id</b>,
     * on every database alike: PostgreSQL's identity column does not take explicit ids and SQL
     * Server's only under IDENTITY_INSERT, which needs ALTER permission. It therefore queues behind
     * the messages already waiting at its priority.
     *
     * <p>A dead letter whose dedup key belongs to a message in the queue stays in the dead-letter
     * table, untouched and not counted, as a duplicate enqueue would write nothing; so does one
     * with an older dead letter of the same key (that one goes first). A later requeue moves it
     * once the key is free. Nothing is lost: a dead letter leaves its table in the same transaction
     * that puts it into the queue (one statement on SQL Server and PostgreSQL).
     *
     * <p>Works in batches of {@value #REQUEUE_BATCH}, each one transaction (see the class comment)
     * that writes its {@link AuditTrail} row: {@code actor}, the count it moved and the criterion
     * {@value AuditTrail#OLDEST_FIRST}. Creates the audit table first where it is missing.
     *
     * @param max at least 1
     * @throws IllegalArgumentException for {@code max} below 1, or a blank or too long actor, before any SQL runs
     */
    public int requeue(Connection c, int max, String actor) throws SQLException {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
        AuditTrail.checkedActor(actor);
        return inAudited(c, max, requeueBatch, "requeue of the oldest from " + table,
                size -> requeueBatch(c, size, sql.requeue, b -> { }),
                moved -> audit.recordCriterion(c, actor, AuditTrail.REQUEUE, queue.toString(), moved,
                        AuditTrail.OLDEST_FIRST));
    }

    private int requeueBatch(Connection c, int size, Dialect.Requeue requeue, Dialect.Binding parameters)
            throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return requeue.move(c, size, parameters);
            } catch (SQLException e) {
                if (!dialect.isUniqueViolation(e) || attempt == TRIES_PER_BATCH) {
                    throw e;
                }
                // A message with the dedup key of a dead letter in this batch was enqueued after the
                // batch looked. The rollback undoes whatever the batch did; the next try sees the
                // queued message and leaves that dead letter behind.
                c.rollback();
            }
        }
    }

    /**
     * Deletes the dead letters that failed before {@code cutoff} ({@code failed_at}, the database
     * clock in UTC) and returns how many it deleted. Works in batches of {@value #PURGE_BATCH} rows,
     * each one transaction (see the class comment) that writes its {@link AuditTrail} row:
     * operation {@value AuditTrail#DELETE}, {@code actor}, the count and the criterion
     * {@code failed before <cutoff>}; rows other transactions hold are left for a later purge.
     * Creates the audit table first where it is missing.
     *
     * @throws IllegalArgumentException for a blank or too long actor, before any SQL runs
     */
    public int purgeFailedBefore(Connection c, Instant cutoff, String actor) throws SQLException {
        Objects.requireNonNull(cutoff, "cutoff");
        AuditTrail.checkedActor(actor);
        return inAudited(c, Integer.MAX_VALUE, purgeBatch, "purge of " + table,
                size -> dialect.deleteBatchBefore(c, sql.purgeDeadLetters, size, cutoff),
                purged -> audit.recordCriterion(c, actor, AuditTrail.DELETE, queue.toString(), purged,
                        "failed before " + cutoff));
    }

    // ---- browsing, and changes for a named actor (the dead-letter console) ----------------------

    /** The most groups {@link #groups} returns. */
    public static final int MAX_GROUPS = 200;
    /** The most dead letters one {@link #list} page holds. */
    public static final int MAX_PAGE = 500;
    /** The most ids one requeue or delete of a selection takes (SQL Server binds at most 2,100 parameters). */
    public static final int MAX_SELECTION = 500;
    /** The list sizes a selection's statement is written for: a few statements, not one per size. */
    private static final int[] SELECTION_SIZES = {1, 10, 100, MAX_SELECTION};

    /**
     * The dead letters grouped by {@link DeadLetterReason}, the largest group first (then the one
     * that failed last), at most {@value #MAX_GROUPS} groups. Reads in the caller's transaction.
     */
    public List<DeadLetterGroup> groups(Connection c) throws SQLException {
        List<DeadLetterGroup> groups = new ArrayList<>();
        try (SqlTemplate.Bound b = browsing.groups.prepare(c).setInt("limit", MAX_GROUPS); ResultSet rs = b.executeQuery()) {
            while (rs.next()) {
                groups.add(new DeadLetterGroup(new DeadLetterReason(rs.getString(1), rs.getString(2)), rs.getLong(3),
                        dialect.readInstant(rs, 4), dialect.readInstant(rs, 5)));
            }
        }
        return groups;
    }

    /**
     * One page of the dead letters, newest failure first (then highest id), without headers and
     * bodies: all of them, or those of one group. Reads in the caller's transaction.
     *
     * @param reason the group's reason, or null for every dead letter
     * @param offset how many to pass over, at least 0
     * @param limit  1 to {@value #MAX_PAGE}
     * @throws IllegalArgumentException for an offset or limit out of range
     */
    public List<DeadLetter> list(Connection c, DeadLetterReason reason, int offset, int limit) throws SQLException {
        if (offset < 0 || limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("offset must be at least 0 and limit 1 to " + MAX_PAGE + ", were "
                    + offset + " and " + limit);
        }
        SqlTemplate page = reason == null ? browsing.page : browsing.pageOf(reason);
        List<DeadLetter> rows = new ArrayList<>();
        try (SqlTemplate.Bound b = page.prepare(c).setInt("offset", offset).setInt("limit", limit)) {
            if (reason != null) {
                reason.bind(b);
            }
            try (ResultSet rs = b.executeQuery()) {
                while (rs.next()) {
                    rows.add(row(rs));
                }
            }
        }
        return rows;
    }

    private DeadLetter row(ResultSet rs) throws SQLException {
        return new DeadLetter(rs.getLong(1), rs.getInt(2), dialect.readInstant(rs, 3), dialect.readInstant(rs, 4),
                rs.getInt(5), rs.getString(6), rs.getString(7), new DeadLetterReason(rs.getString(8), rs.getString(9)));
    }

    /**
     * The dead letter with this id, with its headers, body and the journal's rows for its id when
     * the queue has a journal ({@link CompletionJournal}); empty when there is no such dead letter.
     * Should a table written by hand hold several rows of the id, the latest failure. Reads in the
     * caller's transaction; the journal is read by {@code message_id}, which its index does not
     * lead with, so this scans it: an operator's look, not a poller's.
     */
    public Optional<DeadLetterMessage> read(Connection c, long id) throws SQLException {
        DeadLetterMessage found;
        try (SqlTemplate.Bound b = browsing.message.prepare(c).setLong("id", id); ResultSet rs = b.executeQuery()) {
            if (!rs.next()) {
                return Optional.empty();
            }
            found = new DeadLetterMessage(row(rs), rs.getString(10), rs.getBytes(11), List.of());
        }
        return Optional.of(new DeadLetterMessage(found.row(), found.headers(), found.body(), history(c, id)));
    }

    /**
     * The dead letter with this id as it was before an operator requeued it edited
     * ({@link #requeueEdited}): the edit's audit row, the original's headers and body, and the
     * journal's rows for its id as {@link #read} gives them; empty when no edit of this queue
     * replaced a dead letter with this id. Creates the audit table, or brings it up to date, first,
     * and commits that (as the changes do; call it on a connection that is not part of another
     * transaction); then reads in the connection's mode.
     */
    public Optional<EditedDeadLetter> readEdited(Connection c, long id) throws SQLException {
        audit.createIfMissing(c);
        Optional<EditedDeadLetter> edit = audit.edit(c, queue.toString(), id);
        if (edit.isEmpty()) {
            return edit;
        }
        EditedDeadLetter found = edit.get();
        return Optional.of(new EditedDeadLetter(found.edit(), found.headers(), found.body(), history(c, id)));
    }

    /** The journal's rows for {@code id}, oldest first; none when the queue has no journal. */
    private List<JournalEntry> history(Connection c, long id) throws SQLException {
        if (!TableCatalog.read(c, dialect, journal).exists()) {
            return List.of();
        }
        List<JournalEntry> history = new ArrayList<>();
        try (SqlTemplate.Bound b = browsing.history.prepare(c).setLong("id", id); ResultSet rs = b.executeQuery()) {
            while (rs.next()) {
                history.add(new JournalEntry(rs.getLong(1), dialect.readInstant(rs, 2), dialect.readInstant(rs, 3),
                        dialect.readInstant(rs, 4), rs.getInt(5), JournalEntry.Outcome.of(rs.getString(6)),
                        rs.getString(7), rs.getString(8)));
            }
        }
        return List.copyOf(history);
    }

    /**
     * Moves the dead letters with these ids back into the queue, as {@link #requeue(Connection, int)}
     * moves them (a new id, attempts 0, a dead letter whose dedup key is queued stays), and writes
     * an {@link AuditTrail} row naming {@code actor} and the ids in the same transaction; returns
     * how many it moved. One transaction; nothing is written when nothing moved. Creates the audit
     * table first where it is missing. Call it on a connection that is not part of another
     * transaction; its auto-commit mode is restored.
     *
     * @param ids 1 to {@value #MAX_SELECTION} ids
     * @throws IllegalArgumentException for no ids, too many, or a blank or too long actor, before any SQL runs
     */
    public int requeue(Connection c, List<Long> ids, String actor) throws SQLException {
        int size = selectionSize(ids);
        AuditTrail.checkedActor(actor);
        Dialect.Requeue move = browsing.requeueIds(size);
        return inAudited(c, ids.size(), size, "requeue of a selection from " + table,
                n -> requeueBatch(c, size, move, b -> b.setLongList("ids", ids, size)),
                moved -> audit.recordSelection(c, actor, AuditTrail.REQUEUE, queue.toString(), moved, ids));
    }

    /**
     * Moves the dead letters of a group back into the queue, as {@link #requeue(Connection, int)}
     * does, in batches of {@value #REQUEUE_BATCH}, each one transaction that writes its own
     * {@link AuditTrail} row (actor, the group's reason, the count it moved); returns how many it
     * moved. Otherwise as {@link #requeue(Connection, List, String)}.
     */
    public int requeue(Connection c, DeadLetterReason reason, String actor) throws SQLException {
        Objects.requireNonNull(reason, "reason");
        AuditTrail.checkedActor(actor);
        Dialect.Requeue move = browsing.requeueGroup(reason);
        return inAudited(c, Integer.MAX_VALUE, requeueBatch, "requeue of a group from " + table,
                size -> requeueBatch(c, size, move, reason::bind),
                moved -> audit.recordGroup(c, actor, AuditTrail.REQUEUE, queue.toString(), moved, reason));
    }

    /**
     * Deletes the dead letters with these ids and writes an {@link AuditTrail} row naming
     * {@code actor} and the ids in the same transaction; returns how many it deleted. Otherwise as
     * {@link #requeue(Connection, List, String)}.
     */
    public int delete(Connection c, List<Long> ids, String actor) throws SQLException {
        int size = selectionSize(ids);
        AuditTrail.checkedActor(actor);
        SqlTemplate delete = browsing.deleteIds(size);
        return inAudited(c, ids.size(), size, "delete of a selection from " + table, n -> {
            try (SqlTemplate.Bound b = delete.prepare(c)) {
                return b.setLongList("ids", ids, size).executeUpdate();
            }
        }, deleted -> audit.recordSelection(c, actor, AuditTrail.DELETE, queue.toString(), deleted, ids));
    }

    /**
     * Deletes the dead letters of a group in batches of {@value #PURGE_BATCH}, each one
     * transaction that writes its own {@link AuditTrail} row; returns how many it deleted. Rows
     * other transactions hold are left where the database can pass over them. Otherwise as
     * {@link #requeue(Connection, DeadLetterReason, String)}.
     */
    public int delete(Connection c, DeadLetterReason reason, String actor) throws SQLException {
        Objects.requireNonNull(reason, "reason");
        AuditTrail.checkedActor(actor);
        SqlTemplate delete = browsing.deleteGroup(reason);
        return inAudited(c, Integer.MAX_VALUE, purgeBatch, "delete of a group from " + table,
                size -> dialect.withClaimIsolation(c, () -> {
                    try (SqlTemplate.Bound b = delete.withLiteral("n", size).prepare(c)) {
                        reason.bind(b);
                        return b.executeUpdate();
                    }
                }),
                deleted -> audit.recordGroup(c, actor, AuditTrail.DELETE, queue.toString(), deleted, reason));
    }

    /** The longest edited body {@link #requeueEdited} takes, in UTF-8 bytes: an operator's edit, not a bulk load. */
    public static final int MAX_EDITED_BODY_BYTES = 1 << 20;

    /**
     * Requeues the dead letter {@code id} as a <b>new message</b> with an edited body and/or headers,
     * and returns the new message's id; empty when there is no such dead letter (or another operator
     * took it meanwhile), and then nothing is written. One transaction: the dead letter is deleted,
     * the new message inserted and an {@link AuditTrail} row written (operation
     * {@value AuditTrail#EDIT}, count 1, ids {@code "<old id> -> <new id>"}), all or nothing.
     * Creates the audit table first where it is missing. Call it on a connection that is not part of
     * another transaction; its auto-commit mode is restored.
     *
     * <p>The new message is ready at once, with attempts 0, a new {@code enqueued_at}, the original's
     * priority and ordering key (so it stays in its key's order, behind what is queued), and <b>no
     * dedup key</b>: the edit is a new message the operator chose to send, so a queued message with
     * the old key must not swallow it (a send with a queued key writes nothing).
     *
     * <p>The original: the dead letter row is gone; the audit row keeps its {@code id} beside the new
     * one and its headers and body as they were ({@link #readEdited} reads them back), and the journal
     * ({@link CompletionJournal}), where the queue has one, keeps the rows its deliveries wrote
     * ({@code dead_lettered} last). The edit writes no journal row, as it is not a delivery (and the
     * journal's {@code outcome} CHECK of existing tables allows only delivery outcomes).
     *
     * @param newBody    the new body as text, stored as UTF-8, at most {@value #MAX_EDITED_BODY_BYTES}
     *                   bytes; null keeps the original body's bytes (a headers-only edit, e.g. of a binary body)
     * @param newHeaders the new headers, replacing all the original's (checked as by
     *                   {@link OutgoingMessage.Builder#header}); null keeps the original's
     * @throws IllegalArgumentException for a bad body, header or actor, before any SQL runs
     */
    public OptionalLong requeueEdited(Connection c, long id, String newBody, Map<String, String> newHeaders,
            String actor) throws SQLException {
        AuditTrail.checkedActor(actor);
        byte[] body = newBody == null ? null : newBody.getBytes(StandardCharsets.UTF_8);
        if (body != null && body.length > MAX_EDITED_BODY_BYTES) {
            throw new IllegalArgumentException("the edited body must be at most " + MAX_EDITED_BODY_BYTES
                    + " bytes in UTF-8, was " + body.length);
        }
        if (newHeaders != null) {
            OutgoingMessage.bytes(new byte[0]).headers(newHeaders); // checks names and values before any SQL
        }
        long[] newId = {0};
        audit.createIfMissing(c);
        BatchedTransactions.run(c, 1, 1, "edit of dead letter " + id + " in " + table, size -> {
            Optional<DeadLetterMessage> found = read(c, id);
            if (found.isEmpty() || deleteOne(c, id) == 0) {
                return 0;
            }
            DeadLetterMessage original = found.get();
            OutgoingMessage.Builder edited = OutgoingMessage.bytes(body == null ? original.body() : body)
                    .headers(newHeaders == null ? original.headerMap() : newHeaders)
                    .priority(original.row().priority());
            if (original.row().orderingKey() != null) {
                edited.orderingKey(original.row().orderingKey());
            }
            newId[0] = QueueTable.insert(c, dialect, queue, sql.insert, edited.build());
            audit.recordEdit(c, actor, queue.toString(), original, newId[0]);
            return 1;
        });
        if (newId[0] == 0) {
            return OptionalLong.empty();
        }
        LOG.log(Level.INFO, "{0} requeued dead letter {1} of {2}, edited, as message {3}",
                new Object[] {actor, id, table, newId[0]});
        return OptionalLong.of(newId[0]);
    }

    private int deleteOne(Connection c, long id) throws SQLException {
        try (SqlTemplate.Bound b = browsing.deleteIds(1).prepare(c)) {
            return b.setLongList("ids", List.of(id), 1).executeUpdate();
        }
    }

    /** Writes the audit row of a batch that changed {@code count} dead letters, in its transaction. */
    @FunctionalInterface
    private interface AuditRow {
        void write(int count) throws SQLException;
    }

    /**
     * Creates the audit table where missing, then runs the batches of {@code change}, each writing
     * its audit row in its own transaction when it changed something, and logs what they did.
     */
    private int inAudited(Connection c, int limit, int batchSize, String what, BatchedTransactions.Batch change,
            AuditRow row) throws SQLException {
        audit.createIfMissing(c);
        int done = BatchedTransactions.run(c, limit, batchSize, what, size -> {
            int changed = change.run(size);
            if (changed > 0) {
                row.write(changed);
            }
            return changed;
        });
        LOG.log(Level.INFO, "{0}: {1} dead letters", new Object[] {what, done});
        return done;
    }

    /** The list size a selection's statement is written for; checks the ids before any SQL runs. */
    private static int selectionSize(List<Long> ids) {
        Objects.requireNonNull(ids, "ids");
        if (ids.isEmpty() || ids.size() > MAX_SELECTION || ids.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("a selection is 1 to " + MAX_SELECTION + " ids, none null; was "
                    + (ids.size() > 10 ? ids.size() + " ids" : ids));
        }
        for (int size : SELECTION_SIZES) {
            if (ids.size() <= size) {
                return size;
            }
        }
        throw new AssertionError(ids.size());
    }

    @Override
    public String toString() {
        return "DeadLetters[" + table + " of " + queue + " on " + dialect.name() + "]";
    }
}
