package io.sqlqueue.engine;

import java.util.List;

/**
 * The columns and indexes of one of the adapter's tables, in logical types: the schema declared
 * once. Each {@link Dialect} renders a definition as its CREATE statements, and
 * {@link SchemaCreation} brings an existing table up to it (the columns and indexes that releases
 * after the first added). The five definitions are the constants below.
 *
 * @param what        what the table is, for errors and logs ("the queue table")
 * @param columns     in the order of CREATE TABLE
 * @param primaryKey  the primary key's columns
 * @param indexes     named by the table's name plus their suffix
 * @param rowLocksOnly whether the database must never escalate the table's row locks to a table
 *                    lock (SQL Server's LOCK_ESCALATION): an ordered claim keeps the locks of the
 *                    rows it walks past until its delivery ends, and past 5,000 of them SQL Server
 *                    would lock the whole table for that long
 */
record TableDefinition(String what, List<Column> columns, List<String> primaryKey, List<Index> indexes,
        boolean rowLocksOnly) {

    /** The logical types; {@link Dialect#typeOf} names each in its database. */
    enum Type {
        /** BIGINT, numbered by the database. */
        IDENTITY,
        BIGINT,
        INTEGER,
        SMALLINT,
        /** A point in time, written from the database's UTC clock. */
        TIMESTAMP,
        /** A dedup or ordering key, compared exactly ({@link Dialect#sameKey}): case, accents and trailing spaces count. */
        KEY,
        /**
         * The length of a {@link #KEY} column in bytes, computed, where the database's comparison
         * pads trailing spaces (SQL Server): the unique dedup index holds it beside the key. Not
         * rendered where keys compare exactly by themselves.
         */
        KEY_LENGTH,
        /** Text of at most {@code length} characters, any script. */
        TEXT,
        /** A short ASCII code of at most {@code length} characters. */
        CODE,
        /** Text of any length (headers as JSON). */
        LONG_TEXT,
        /** Bytes of any length (bodies). */
        BYTES
    }

    /**
     * @param length       for TEXT and CODE
     * @param defaultValue a literal, {@link #CLOCK} for the database's clock, or null
     * @param check        a CHECK condition, or null
     * @param keyColumn    for KEY_LENGTH, the key column it measures
     */
    record Column(String name, Type type, int length, boolean notNull, String defaultValue, String check,
            String keyColumn) {

        static Column of(String name, Type type) {
            return new Column(name, type, 0, false, null, null, null);
        }

        static Column text(String name, Type type, int length) {
            return new Column(name, type, length, false, null, null, null);
        }

        Column required() {
            return new Column(name, type, length, true, defaultValue, check, keyColumn);
        }

        Column withDefault(String value) {
            return new Column(name, type, length, notNull, value, check, keyColumn);
        }

        Column checked(String condition) {
            return new Column(name, type, length, notNull, defaultValue, condition, keyColumn);
        }

        static Column lengthOf(String keyColumn) {
            return new Column(keyColumn + "_length", Type.KEY_LENGTH, 0, false, null, null, keyColumn);
        }
    }

    /** The {@link Column#defaultValue} of a column that defaults to the database's clock. */
    static final String CLOCK = "clock";

    /** Which kind of index; see {@link Index}. */
    enum Kind {
        INDEX,
        UNIQUE,
        /** The table's physical order where the database clusters tables (SQL Server); a plain index elsewhere. */
        CLUSTERED,
        /** Unique and the table's physical order where the database clusters tables; not made elsewhere. */
        TABLE_ORDER
    }

    /**
     * An index. Only a plain ({@link Kind#INDEX}) one is added to an existing table that lacks it;
     * the others come with the table (a unique index could fail on the rows there, and a table has
     * one physical order).
     *
     * @param columns  its key columns, each possibly followed by {@code DESC}
     * @param include  non-key columns it carries where the database can
     * @param filter   the rows it holds where the database has partial indexes; where it has
     *                 none, the filter's column leads the index instead (unless it is a key column)
     */
    record Index(String suffix, Kind kind, List<String> columns, List<String> include, Filter filter) {

        /** Its first key column: an existing index led by it, ours or an operator's, counts as this one. */
        String lead() {
            return columns.get(0).split(" ")[0];
        }
    }

    /**
     * The rows a partial index holds: those whose {@code column} is not NULL, or ({@link #READY})
     * the rows that are not hidden, as {@link Dialect#notHidden()} writes it.
     */
    record Filter(String column, boolean notNull) {
        static final Filter READY = new Filter("hidden", false);

        static Filter notNull(String column) {
            return new Filter(column, true);
        }
    }

    private static final Column DEDUP_KEY = Column.of("dedup_key", Type.KEY);
    private static final Column HEADERS = Column.of("headers", Type.LONG_TEXT);
    private static final Column BODY = Column.of("body", Type.BYTES).required();
    private static final Column LAST_ERROR = Column.text("last_error", Type.TEXT, Dialect.MAX_ERROR_LENGTH);
    private static final Column ORDERING_KEY = Column.of("ordering_key", Type.KEY);

    /**
     * Ordering and dedup keys with the messages; {@code hidden} marks rows whose {@code visible_at}
     * is a second or more ahead ({@link Dialect#HIDDEN_FROM_MILLIS}); {@code leased_by} names the
     * processes whose leases of the row ran out, one after the other, newest first, and the current
     * holder (QueueSql's lease), so that a dead-letter reason can say who never completed it. The ready index holds all a
     * claim reads, the ordered claim's {@code ordering_key} included: on SQL Server the rows it walks
     * past are then locked in that index alone, not in the table as well.
     */
    static final TableDefinition QUEUE = new TableDefinition("the queue table", List.of(
            Column.of("id", Type.IDENTITY).required(),
            Column.of("priority", Type.SMALLINT).required().withDefault("0"),
            Column.of("visible_at", Type.TIMESTAMP).required().withDefault(CLOCK),
            Column.of("enqueued_at", Type.TIMESTAMP).required().withDefault(CLOCK),
            Column.of("attempts", Type.INTEGER).required().withDefault("0"),
            DEDUP_KEY,
            HEADERS,
            BODY,
            LAST_ERROR,
            Column.of("lease_token", Type.BIGINT),
            Column.of("expires_at", Type.TIMESTAMP),
            ORDERING_KEY,
            Column.of("hidden", Type.SMALLINT),
            Column.text("leased_by", Type.TEXT, Dialect.MAX_LEASED_BY_LENGTH),
            Column.lengthOf("dedup_key")),
            List.of("id"),
            List.of(
                    new Index("_dequeue", Kind.TABLE_ORDER, List.of("priority DESC", "id"), List.of(), null),
                    new Index("_dedup", Kind.UNIQUE, List.of("dedup_key", "dedup_key_length"), List.of(),
                            Filter.notNull("dedup_key")),
                    new Index("_ordering", Kind.INDEX, List.of("ordering_key", "id"), List.of(),
                            Filter.notNull("ordering_key")),
                    new Index("_expiry", Kind.INDEX, List.of("expires_at"), List.of(), Filter.notNull("expires_at")),
                    new Index("_ready", Kind.INDEX, List.of("hidden", "priority DESC", "id"),
                            List.of("visible_at", "ordering_key"), Filter.READY),
                    new Index("_hidden", Kind.INDEX, List.of("visible_at"), List.of(), Filter.notNull("hidden"))),
            true);

    /**
     * The dead letters: a queue row as it was, with why and when it failed and the class of the
     * exception that said so (null when none did: expired, undecodable, its leases ran out); no key of its own.
     */
    static final TableDefinition DEAD_LETTERS = new TableDefinition("the dead-letter table", List.of(
            Column.of("id", Type.BIGINT).required(),
            Column.of("priority", Type.SMALLINT).required(),
            Column.of("visible_at", Type.TIMESTAMP).required(),
            Column.of("enqueued_at", Type.TIMESTAMP).required(),
            Column.of("attempts", Type.INTEGER).required(),
            DEDUP_KEY,
            HEADERS,
            BODY,
            LAST_ERROR,
            Column.of("failed_at", Type.TIMESTAMP).required(),
            ORDERING_KEY,
            Column.text("error_class", Type.TEXT, Dialect.MAX_ERROR_CLASS_LENGTH)),
            List.of(),
            List.of(
                    new Index("_failed", Kind.CLUSTERED, List.of("failed_at", "id"), List.of(), null),
                    new Index("_dedup", Kind.INDEX, List.of("dedup_key", "failed_at", "id"), List.of(),
                            Filter.notNull("dedup_key"))),
            false);

    /**
     * A completion journal: clustered on {@code completed_at} where the database clusters, so rows
     * are written at the end, retention deletes from the start, and the per-minute report reads one range.
     */
    static final TableDefinition JOURNAL = new TableDefinition("the completion journal", List.of(
            Column.of("message_id", Type.BIGINT).required(),
            Column.of("enqueued_at", Type.TIMESTAMP).required(),
            Column.of("claimed_at", Type.TIMESTAMP).required(),
            Column.of("completed_at", Type.TIMESTAMP).required(),
            Column.of("attempts", Type.INTEGER).required(),
            Column.text("outcome", Type.CODE, 13).required().checked("outcome IN ('completed', 'dead_lettered')"),
            Column.text("consumer", Type.TEXT, 200),
            // the producer's W3C trace id (32 hex digits) from the traceparent header; null without one
            Column.text("trace_id", Type.CODE, 32)),
            List.of(),
            List.of(new Index("_at", Kind.CLUSTERED, List.of("completed_at"), List.of(), null)),
            false);

    /**
     * The operators' changes to dead letters ({@link AuditTrail}), one row per committed change:
     * who, when (the database clock), what ({@code requeue}, {@code delete}, {@code edit}), on which queue, how
     * many messages, and which: their ids for a selection, the reason and exception class for a
     * group, a {@code criterion} for the JMX operations that take neither (the oldest failures, those
     * failed before a time); an edit's row keeps the original's headers and body, which no other table
     * keeps once the dead letter is replaced. The last three columns came with a later release, so
     * they are nullable and added to an existing table at the next start. Clustered on
     * {@code acted_at} where the database clusters, as rows are written at the end.
     */
    static final TableDefinition AUDIT = new TableDefinition("the audit table", List.of(
            Column.of("id", Type.IDENTITY).required(),
            Column.of("acted_at", Type.TIMESTAMP).required().withDefault(CLOCK),
            Column.text("actor", Type.TEXT, AuditTrail.MAX_ACTOR_LENGTH).required(),
            Column.text("operation", Type.CODE, 20).required(),
            Column.text("queue_name", Type.TEXT, 300).required(),
            Column.of("message_count", Type.INTEGER).required(),
            Column.text("message_ids", Type.TEXT, AuditTrail.MAX_IDS_LENGTH),
            LAST_ERROR,
            Column.text("error_class", Type.TEXT, Dialect.MAX_ERROR_CLASS_LENGTH),
            Column.text("criterion", Type.TEXT, AuditTrail.MAX_CRITERION_LENGTH),
            Column.of("original_headers", Type.LONG_TEXT),
            Column.of("original_body", Type.BYTES)),
            List.of("id"),
            List.of(new Index("_at", Kind.CLUSTERED, List.of("acted_at"), List.of(), null)),
            false);

    /** The topics' subscriptions ({@link Topic}). */
    static final TableDefinition SUBSCRIPTIONS = new TableDefinition("the subscriptions table", List.of(
            Column.text("topic", Type.TEXT, 200).required(),
            Column.text("name", Type.TEXT, 200).required(),
            Column.text("filter", Type.TEXT, SubscriptionFilter.MAX_LENGTH),
            Column.of("created_at", Type.TIMESTAMP).required()),
            List.of("topic", "name"),
            List.of(),
            false);
}
