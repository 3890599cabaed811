package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The operators' changes to dead letters, the table {@value #TABLE} in the queue's schema (one for
 * all the queues of a schema, as the topics' subscriptions table): each requeue, delete and edit that
 * {@link DeadLetters} does for a named actor writes a row there in the transaction of the change
 * itself, so a row exists exactly when the change was committed. Columns: {@code id},
 * {@code acted_at} (the database clock), {@code actor}, {@code operation}, {@code queue_name},
 * {@code message_count}, {@code message_ids} (a selection's), {@code last_error} and
 * {@code error_class} (a group's reason); see {@link AuditEntry}.
 *
 * <p><b>Transactions.</b> {@link #createIfMissing} commits its own work; call it on a connection
 * that is not part of another transaction. {@link #recent} reads in the caller's.
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

    private static final String COLUMNS =
            "id, acted_at, actor, operation, queue_name, message_count, message_ids, last_error, error_class";

    private final Dialect dialect;
    private final TableName name;
    private final SqlTemplate insert;
    private final SqlTemplate recent;

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
                + " message_ids, last_error, error_class) VALUES (" + dialect.now() + ", :actor, :operation, :queue,"
                + " :count, :ids, :reason, :errorClass)");
        this.recent = new SqlTemplate("SELECT " + COLUMNS + " FROM " + t + " WHERE queue_name = :queue"
                + " ORDER BY acted_at DESC, id DESC OFFSET 0 ROWS FETCH NEXT :limit ROWS ONLY");
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
                String reason = rs.getString(8);
                String errorClass = rs.getString(9);
                String ids = rs.getString(7);
                rows.add(new AuditEntry(rs.getLong(1), dialect.readInstant(rs, 2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getInt(6), ids,
                        ids == null ? new DeadLetterReason(reason, errorClass) : null));
            }
        }
        return rows;
    }

    /** Writes the row of a change to a selection, in the caller's transaction. */
    void recordSelection(Connection c, String actor, String operation, String queue, int count, List<Long> ids)
            throws SQLException {
        String list = ids.stream().map(String::valueOf).collect(Collectors.joining(", "));
        if (list.length() > MAX_IDS_LENGTH) {
            list = list.substring(0, MAX_IDS_LENGTH - 1) + "…";
        }
        write(c, actor, operation, queue, count, list, null);
    }

    /** Writes the row of an edit: dead letter {@code oldId} requeued, changed, as message {@code newId}. */
    void recordEdit(Connection c, String actor, String queue, long oldId, long newId) throws SQLException {
        write(c, actor, EDIT, queue, 1, oldId + " -> " + newId, null);
    }

    /** Writes the row of a change to a group, in the caller's transaction. */
    void recordGroup(Connection c, String actor, String operation, String queue, int count, DeadLetterReason group)
            throws SQLException {
        write(c, actor, operation, queue, count, null, group);
    }

    private void write(Connection c, String actor, String operation, String queue, int count, String ids,
            DeadLetterReason group) throws SQLException {
        try (SqlTemplate.Bound b = insert.prepare(c)) {
            b.setString("actor", actor).setString("operation", operation).setString("queue", queue).setInt("count", count)
                    .setString("ids", ids)
                    .setString("reason", group == null ? null : group.reason())
                    .setString("errorClass", group == null ? null : group.errorClass())
                    .executeUpdate();
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
