package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The operators' changes to dead letters, the table {@value #TABLE} in the queue's schema (one for
 * all the queues of a schema, as the topics' subscriptions table): each requeue, delete and edit that
 * {@link DeadLetters} does for a named actor writes a row there in the transaction of the change
 * itself, so a row exists exactly when the change was committed. Columns: {@code id},
 * {@code acted_at} (the database clock), {@code actor}, {@code operation}, {@code queue_name},
 * {@code message_count}, {@code message_ids} (a selection's, or an edit's {@code "<old> -> <new>"}),
 * {@code last_error} and {@code error_class} (a group's reason), {@code criterion} (a JMX operation's
 * choice, e.g. {@value #OLDEST_FIRST}), {@code original_headers} and {@code original_body} (an edit's
 * original, which nothing else keeps); see {@link AuditEntry} and {@link EditedDeadLetter}. A table
 * of a release before the last three columns gains them in {@link #createIfMissing}.
 *
 * <p><b>Transactions.</b> {@link #createIfMissing} commits its own work; call it on a connection
 * that is not part of another transaction. {@link #recent} and {@code edit} read in the caller's,
 * from a table {@link #createIfMissing} has brought up to date.
 *
 * <p><b>Threads.</b> Immutable and thread-safe; use each connection on one thread at a time.
 */
public final class AuditTrail {

    /** The table's name, in the queue's schema. */
    public static final String TABLE = "sqlqueue_audit";
    /** The operation of a requeue. */
    public static final String REQUEUE = "requeue";
    /** The operation of a delete. */
    public static final String DELETE = "delete";
    /** The operation of an edit: a dead letter requeued as a new message; its ids are "old -> new". */
    public static final String EDIT = "edit";
    /** The longest actor name stored; a longer one is refused. */
    public static final int MAX_ACTOR_LENGTH = 200;
    /** The longest list of ids stored; a longer one is cut. */
    public static final int MAX_IDS_LENGTH = 2000;
    /** The longest {@code criterion} stored. */
    static final int MAX_CRITERION_LENGTH = 200;
    /** The criterion of a JMX requeue of the oldest dead letters ({@link DeadLetters#requeue(Connection, int, String)}). */
    public static final String OLDEST_FIRST = "oldest failures first";
    /** The actor of a change made through JMX by a caller without a principal (a local, unauthenticated connection). */
    public static final String JMX_ACTOR = "jmx";

    private static final String COLUMNS = "id, acted_at, actor, operation, queue_name, message_count, message_ids,"
            + " last_error, error_class, criterion";

    private final Dialect dialect;
    private final TableName name;
    private final SqlTemplate insert;
    private final SqlTemplate recent;
    private final SqlTemplate edit;

    /** The audit table of {@code queue}'s schema. Writes nothing. */
    public AuditTrail(QueueTable queue) {
        this(queue.dialect(), queue.name());
    }

    AuditTrail(Dialect dialect, TableName queue) {
        this.dialect = dialect;
        String schema = queue.schema();
        this.name = TableName.parse((schema == null ? "" : schema + ".") + TABLE);
        String t = dialect.qualified(name);
        this.insert = new SqlTemplate("INSERT INTO " + t + " (acted_at, actor, operation, queue_name, message_count,"
                + " message_ids, last_error, error_class, criterion, original_headers, original_body) VALUES ("
                + dialect.now() + ", :actor, :operation, :queue, :count, :ids, :reason, :errorClass, :criterion,"
                + " :originalHeaders, :originalBody)");
        this.recent = new SqlTemplate("SELECT " + COLUMNS + " FROM " + t + " WHERE queue_name = :queue"
                + " ORDER BY acted_at DESC, id DESC OFFSET 0 ROWS FETCH NEXT :limit ROWS ONLY");
        // An edit's ids are "<old> -> <new>" (recordEdit), so the prefix finds the edit of an old id;
        // the newest first, should a table written by hand have reused the id.
        this.edit = new SqlTemplate("SELECT " + COLUMNS + ", original_headers, original_body FROM " + t
                + " WHERE queue_name = :queue AND operation = '" + EDIT + "' AND message_ids LIKE :prefix"
                + " ORDER BY id DESC OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY");
    }

    public TableName name() {
        return name;
    }

    /**
     * Creates the table and its index where missing, and commits; safe when several servers start
     * at once. Call it on a connection that is not part of another transaction.
     */
    public void createIfMissing(Connection c) throws SQLException {
        SchemaCreation.createIfMissing(c, dialect, "sqlqueue:" + name, new SchemaCreation.Table(TableDefinition.AUDIT, name));
    }

    /**
     * The newest {@code limit} rows about {@code queue} (its name as configured), newest first.
     *
     * @throws IllegalArgumentException for a limit below 1
     */
    public List<AuditEntry> recent(Connection c, String queue, int limit) throws SQLException {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        List<AuditEntry> rows = new ArrayList<>();
        try (SqlTemplate.Bound b = recent.prepare(c).setString("queue", queue).setInt("limit", limit);
                ResultSet rs = b.executeQuery()) {
            while (rs.next()) {
                rows.add(entry(rs));
            }
        }
        return rows;
    }

    private AuditEntry entry(ResultSet rs) throws SQLException {
        String ids = rs.getString(7);
        String criterion = rs.getString(10);
        DeadLetterReason group = ids == null && criterion == null ? new DeadLetterReason(rs.getString(8), rs.getString(9))
                : null;
        return new AuditEntry(rs.getLong(1), dialect.readInstant(rs, 2), rs.getString(3), rs.getString(4),
                rs.getString(5), rs.getInt(6), ids, group, criterion);
    }

    /**
     * The edit that requeued dead letter {@code id} of {@code queue} (its name as configured) as a
     * new message, with the original's headers and body; empty when none did. The history is left
     * empty: {@link DeadLetters#readEdited} adds the journal's.
     */
    Optional<EditedDeadLetter> edit(Connection c, String queue, long id) throws SQLException {
        try (SqlTemplate.Bound b = edit.prepare(c).setString("queue", queue).setString("prefix", id + " -> %");
                ResultSet rs = b.executeQuery()) {
            if (!rs.next()) {
                return Optional.empty();
            }
            return Optional.of(new EditedDeadLetter(entry(rs), rs.getString(11), rs.getBytes(12), List.of()));
        }
    }

    /** Writes the row of a change to a selection, in the caller's transaction. */
    void recordSelection(Connection c, String actor, String operation, String queue, int count, List<Long> ids)
            throws SQLException {
        String list = ids.stream().map(String::valueOf).collect(Collectors.joining(", "));
        String stored = list.length() > MAX_IDS_LENGTH ? list.substring(0, MAX_IDS_LENGTH - 1) + "…" : list;
        write(c, actor, operation, queue, count, b -> b.setString("ids", stored));
    }

    /**
     * Writes the row of an edit: dead letter {@code original} requeued, changed, as message
     * {@code newId}; the row keeps the original's headers and body.
     */
    void recordEdit(Connection c, String actor, String queue, DeadLetterMessage original, long newId)
            throws SQLException {
        write(c, actor, EDIT, queue, 1, b -> b.setString("ids", original.row().id() + " -> " + newId)
                .setString("originalHeaders", original.headers()).setBytes("originalBody", original.body()));
    }

    /** Writes the row of a change to a group, in the caller's transaction. */
    void recordGroup(Connection c, String actor, String operation, String queue, int count, DeadLetterReason group)
            throws SQLException {
        write(c, actor, operation, queue, count,
                b -> b.setString("reason", group.reason()).setString("errorClass", group.errorClass()));
    }

    /** Writes the row of a change to the dead letters a {@code criterion} chose, in the caller's transaction. */
    void recordCriterion(Connection c, String actor, String operation, String queue, int count, String criterion)
            throws SQLException {
        write(c, actor, operation, queue, count, b -> b.setString("criterion", criterion));
    }

    /** Writes a row: the columns every row has, {@code which} binds those of its kind, the others are null. */
    private void write(Connection c, String actor, String operation, String queue, int count, Dialect.Binding which)
            throws SQLException {
        try (SqlTemplate.Bound b = insert.prepare(c)) {
            b.setString("actor", actor).setString("operation", operation).setString("queue", queue)
                    .setInt("count", count).setString("ids", null).setString("reason", null)
                    .setString("errorClass", null).setString("criterion", null).setString("originalHeaders", null)
                    .setBytes("originalBody", null);
            which.bind(b);
            b.executeUpdate();
        }
    }

    /**
     * Checks an actor's name before any SQL runs.
     *
     * @throws IllegalArgumentException for a blank name or one longer than {@value #MAX_ACTOR_LENGTH}
     */
    static String checkedActor(String actor) {
        Objects.requireNonNull(actor, "actor");
        if (actor.isBlank() || actor.length() > MAX_ACTOR_LENGTH) {
            throw new IllegalArgumentException("actor must be 1 to " + MAX_ACTOR_LENGTH
                    + " characters and not blank, was '" + actor + "'");
        }
        return actor;
    }

    @Override
    public String toString() {
        return "AuditTrail[" + name + " on " + dialect.name() + "]";
    }
}
