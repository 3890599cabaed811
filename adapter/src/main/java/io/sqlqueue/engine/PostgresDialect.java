package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.logging.Logger;

/**
 * PostgreSQL: a {@code FOR UPDATE SKIP LOCKED} subquery picks and locks the next rows, the
 * {@code DELETE} / {@code UPDATE} around it takes them, {@code RETURNING} hands them back. Times are
 * {@code timestamptz} from {@code statement_timestamp()}, so a long transaction does not see the
 * clock stand still.
 */
final class PostgresDialect extends Dialect {

    private static final Logger LOG = Logger.getLogger(PostgresDialect.class.getName());

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    String now() {
        return "statement_timestamp()";
    }

    @Override
    String nowPlus(String p) {
        return "statement_timestamp() + :" + p + " * INTERVAL '1 millisecond'";
    }

    /** 55P03: lock_not_available (a lock_timeout ran out), besides deadlock and serialization failures. */
    @Override
    boolean isLockConflictCode(SQLException e) {
        return "55P03".equals(e.getSQLState()) || super.isLockConflictCode(e);
    }

    @Override
    List<String> createStatements(TableName queue, TableName deadLetters) {
        String q = qualified(queue);
        String dlq = qualified(deadLetters);
        return List.of(
                "CREATE TABLE IF NOT EXISTS " + q + " ("
                        + "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                        + "priority SMALLINT NOT NULL DEFAULT 0, "
                        + "visible_at TIMESTAMPTZ NOT NULL DEFAULT statement_timestamp(), "
                        + "enqueued_at TIMESTAMPTZ NOT NULL DEFAULT statement_timestamp(), "
                        + "attempts INTEGER NOT NULL DEFAULT 0, "
                        + "dedup_key VARCHAR(200), "
                        + "headers TEXT, "
                        + "body BYTEA NOT NULL, "
                        + "last_error VARCHAR(2000), "
                        + "lease_token BIGINT, "
                        + "expires_at TIMESTAMPTZ, "
                        + "ordering_key VARCHAR(200), "
                        + "hidden SMALLINT)",
                clockDefaults(q),
                addColumnIfMissing(q, "expires_at", "TIMESTAMPTZ"),
                addColumnIfMissing(q, "ordering_key", "VARCHAR(200)"),
                addColumnIfMissing(q, "hidden", "SMALLINT"),
                // A table made now, or an empty one, gets these indexes at once; a populated one made by
                // an earlier release gets them built without blocking writes (createIndexesAfterUpgrade).
                createIndexIfEmpty(queue, ORDERING),
                createIndexIfEmpty(queue, EXPIRY),
                createIndexIfEmpty(queue, READY),
                createIndexIfEmpty(queue, HIDDEN),
                "CREATE UNIQUE INDEX IF NOT EXISTS " + quote(queue.table() + "_dedup") + " ON " + q
                        + " (dedup_key) WHERE dedup_key IS NOT NULL",
                "CREATE TABLE IF NOT EXISTS " + dlq + " ("
                        + "id BIGINT NOT NULL, "
                        + "priority SMALLINT NOT NULL, "
                        + "visible_at TIMESTAMPTZ NOT NULL, "
                        + "enqueued_at TIMESTAMPTZ NOT NULL, "
                        + "attempts INTEGER NOT NULL, "
                        + "dedup_key VARCHAR(200), "
                        + "headers TEXT, "
                        + "body BYTEA NOT NULL, "
                        + "last_error VARCHAR(2000), "
                        + "failed_at TIMESTAMPTZ NOT NULL, "
                        + "ordering_key VARCHAR(200))",
                addColumnIfMissing(dlq, "ordering_key", "VARCHAR(200)"),
                "CREATE INDEX IF NOT EXISTS " + quote(deadLetters.table() + "_failed") + " ON " + dlq
                        + " (failed_at, id)",
                "CREATE INDEX IF NOT EXISTS " + quote(deadLetters.table() + "_dedup") + " ON " + dlq
                        + " (dedup_key, failed_at, id) WHERE dedup_key IS NOT NULL");
    }

    /**
     * Gives a queue table made before the defaults existed its database-clock defaults, so that
     * {@code INSERT INTO q (body) VALUES (…)} works. Only where one is missing: SET DEFAULT changes
     * the catalog alone (no rewrite), but it takes a brief exclusive lock, which a table already in
     * shape never asks for. The name is a validated identifier, safe inside the literal.
     */
    private static String clockDefaults(String q) {
        StringBuilder sql = new StringBuilder("DO $$ BEGIN");
        for (String column : new String[] {"visible_at", "enqueued_at"}) {
            sql.append(" IF NOT EXISTS (SELECT 1 FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid")
                    .append(" AND a.attnum = d.adnum WHERE d.adrelid = '").append(q).append("'::regclass")
                    .append(" AND a.attname = '").append(column).append("') THEN ALTER TABLE ").append(q)
                    .append(" ALTER COLUMN ").append(column).append(" SET DEFAULT statement_timestamp(); END IF;");
        }
        return sql.append(" END $$").toString();
    }

    /**
     * Gives a table made by an earlier release a column added since (expiry, ordering keys): a
     * catalog change only (nullable, no default), but ALTER TABLE waits for the transactions on the
     * table, so only where it is missing.
     */
    private static String addColumnIfMissing(String table, String column, String type) {
        return "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = '" + table + "'::regclass"
                + " AND attname = '" + column + "' AND NOT attisdropped) THEN ALTER TABLE " + table
                + " ADD COLUMN " + column + " " + type + "; END IF; END $$";
    }

    /**
     * {@code hidden IS NULL}, written so that the planner does not take it for rare. Without
     * statistics on the column (a table not yet analyzed: new, or just given the column) PostgreSQL
     * estimates {@code IS NULL} at 0.5% of the rows, and planned the claim as a bitmap scan of the
     * whole ready index and a sort, reading every ready row for each claim (1,192 deliveries/s
     * against 4,039, end to end); a comparison it estimates at a third, and the claim reads the
     * ready index in order, its first entries. The ready index is filtered on the same expression,
     * which is how the planner sees that it holds the rows.
     */
    private static final String NOT_HIDDEN = "COALESCE(hidden, 0) < 1";

    @Override
    String notHidden() {
        return NOT_HIDDEN;
    }

    /**
     * An index of the queue table added after the first release: its name's suffix, first column
     * (no other index of ours starts with it), columns and the condition of the rows it holds.
     */
    private record LaterIndex(String suffix, String firstColumn, String columns, String where) {
    }

    /** Partial: only rows with a key, or an expiry, are ever looked up through these. */
    private static final LaterIndex ORDERING =
            new LaterIndex("_ordering", "ordering_key", "(ordering_key, id)", "ordering_key IS NOT NULL");
    private static final LaterIndex EXPIRY = new LaterIndex("_expiry", "expires_at", "(expires_at)",
            "expires_at IS NOT NULL");
    /**
     * The claims' index: the rows that are not hidden, in the dequeue order. It replaced the index
     * {@code <queue>_dequeue} on {@code (priority DESC, id)} of all rows, which a table made by an
     * earlier release keeps (see {@link #createIndexesAfterUpgrade}).
     */
    private static final LaterIndex READY = new LaterIndex("_ready", "hidden", "(hidden, priority DESC, id)"
            + " INCLUDE (visible_at)", NOT_HIDDEN);
    /** The reveal's: hidden rows by the time they are due. */
    private static final LaterIndex HIDDEN = new LaterIndex("_hidden", "visible_at", "(visible_at)",
            "hidden IS NOT NULL");

    private String createIndexIfEmpty(TableName queue, LaterIndex index) {
        String q = qualified(queue);
        return "DO $$ BEGIN IF NOT EXISTS (" + existing(q, index, false) + ") AND NOT EXISTS (SELECT 1 FROM " + q + ")"
                + " THEN CREATE INDEX IF NOT EXISTS " + definition(queue, index) + "; END IF; END $$";
    }

    /**
     * A query returning a row when the queue has an index whose first column is the index's (ours,
     * or one an operator made), valid or, with {@code orInvalid}, not.
     */
    private static String existing(String q, LaterIndex index, boolean orInvalid) {
        return "SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]"
                + " WHERE i.indrelid = '" + q + "'::regclass AND a.attname = '" + index.firstColumn() + "'"
                + (orInvalid ? "" : " AND i.indisvalid");
    }

    private String definition(TableName queue, LaterIndex index) {
        return quote(queue.table() + index.suffix()) + " ON " + qualified(queue) + " " + index.columns()
                + " WHERE " + index.where();
    }

    /**
     * Builds the indexes a populated queue table made by an earlier release lacks with
     * {@code CREATE INDEX CONCURRENTLY}: a plain build would block every send and claim until it
     * has read the whole table. CONCURRENTLY cannot run in a transaction, so this runs in
     * auto-commit; a session advisory lock, taken by polling (a waiting statement would hold a
     * snapshot the build itself waits for), keeps two starting servers from building it at once.
     * An invalid index left by a build that was cut off is dropped and built again. The build
     * waits for the transactions running when it starts, on any table, to end.
     */
    @Override
    void createIndexesAfterUpgrade(Connection c, TableName queue) throws SQLException {
        for (LaterIndex index : List.of(ORDERING, EXPIRY, READY, HIDDEN)) {
            buildConcurrently(c, queue, index);
        }
        String dequeue = queue.table() + "_dequeue";
        if (exists(c, "SELECT 1 FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid WHERE i.indrelid = '"
                + qualified(queue) + "'::regclass AND x.relname = '" + dequeue + "'")) {
            // Not dropped here: the claims of a server still on the earlier release read it.
            LOG.info(() -> "the queue table " + queue + " has the index " + dequeue + " of an earlier release,"
                    + " which this release's claims do not read; once no server runs an earlier release, drop it:"
                    + " DROP INDEX CONCURRENTLY " + (queue.schema() == null ? "" : quote(queue.schema()) + ".")
                    + quote(dequeue));
        }
    }

    private void buildConcurrently(Connection c, TableName queue, LaterIndex index) throws SQLException {
        String q = qualified(queue);
        if (exists(c, existing(q, index, false))) {
            return;
        }
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        long key = ("sqlqueue:index:" + queue).hashCode();
        try (Statement s = c.createStatement()) {
            while (!exists(c, "SELECT 1 WHERE pg_try_advisory_lock(" + key + ")")) {
                pause();
            }
            try {
                if (!exists(c, existing(q, index, false))) {
                    if (exists(c, existing(q, index, true))) {
                        s.execute("DROP INDEX CONCURRENTLY IF EXISTS " + indexName(queue, index));
                    }
                    LOG.info(() -> "building index " + indexName(queue, index) + " on the queue table " + queue
                            + " concurrently (a table of an earlier release); sends and claims go on meanwhile");
                    s.execute("CREATE INDEX CONCURRENTLY IF NOT EXISTS " + definition(queue, index));
                }
            } finally {
                s.execute("SELECT pg_advisory_unlock(" + key + ")");
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private String indexName(TableName queue, LaterIndex later) {
        String index = quote(queue.table() + later.suffix());
        return queue.schema() == null ? index : quote(queue.schema()) + "." + index;
    }

    private static boolean exists(Connection c, String query) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            return rs.next();
        }
    }

    private static void pause() throws SQLException {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting to build an index", e);
        }
    }

    @Override
    SqlTemplate createLock() {
        // IF NOT EXISTS still races in the catalog; an advisory lock makes concurrent creators take turns.
        return new SqlTemplate("SELECT pg_advisory_xact_lock(:key)");
    }

    @Override
    String insert(String q) {
        return "INSERT INTO " + q + " " + insertColumns() + " VALUES (:priority, " + nowPlus("delay")
                + ", statement_timestamp(), :headers, :body, :dedupKey, " + insertTail() + ") RETURNING id";
    }

    @Override
    String insertIfAbsent(String q) {
        return "INSERT INTO " + q + " " + insertColumns() + " VALUES (:priority, " + nowPlus("delay")
                + ", statement_timestamp(), :headers, :body, :dedupKey, " + insertTail() + ")"
                + " ON CONFLICT (dedup_key) WHERE dedup_key IS NOT NULL DO NOTHING RETURNING id";
    }

    /**
     * The ids of the next :n ready rows, locked, skipping rows others hold. As {@code id =
     * ANY(ARRAY(…))} the subquery runs once as an InitPlan and the outer statement looks the ids up
     * by primary key: a join would let a generic plan (pgjdbc prepares server-side from the 5th
     * execution) assume LIMIT $1 returns 10% of the table and hash-join a full scan of it.
     */
    private String next(String q, String and) {
        return "id = ANY(ARRAY(SELECT id FROM " + q + " AS m WHERE " + ready() + and
                + " ORDER BY " + DEQUEUE_ORDER + " LIMIT :n FOR UPDATE SKIP LOCKED))";
    }

    /**
     * As the default, by the key's smallest id instead of NOT EXISTS: with few keys PostgreSQL
     * planned the NOT EXISTS as a sequential scan of the table, expecting an earlier row of so
     * common a key at once, and read the whole table for each head (1 key, 37,000 rows: 1.6 ms a
     * claim, slower as the queue grew). MIN over the index on {@code (ordering_key, id)} reads its
     * first entries: 0.2 ms, measured the same way. (Not the default: H2 reads every entry of the
     * key for such a MIN, where its NOT EXISTS stops at the first.)
     */
    @Override
    String headOfKey(String q) {
        return " AND (m.ordering_key IS NULL OR m.id = (SELECT MIN(earlier.id) FROM " + q + " AS earlier"
                + " WHERE earlier.ordering_key IS NOT NULL AND " + sameKey("earlier.ordering_key", "m.ordering_key") + "))";
    }

    @Override
    String claim(String q, String and) {
        return "DELETE FROM " + q + " WHERE " + next(q, and) + " RETURNING " + messageColumns("");
    }

    @Override
    String lease(String q, String and) {
        return "UPDATE " + q + " SET visible_at = " + nowPlus("lease") + ", hidden = " + hiddenFor("lease")
                + ", attempts = " + nextAttempts("attempts") + ", lease_token = :token WHERE " + next(q, and)
                + " RETURNING " + messageColumns("");
    }

    @Override
    String hold(String q, String and) {
        return "SELECT " + messageColumns("") + " FROM " + q + " AS m WHERE " + ready() + and
                + " ORDER BY " + DEQUEUE_ORDER + " LIMIT :n FOR UPDATE SKIP LOCKED";
    }

    @Override
    String deadLetter(String q, String dlq, String attempts, String fence) {
        return "WITH moved AS (DELETE FROM " + q + " WHERE id = :id AND " + fence + " RETURNING *) INSERT INTO " + dlq
                + " (" + DEAD_LETTER_COLUMNS + ") SELECT id, priority, visible_at, enqueued_at, "
                + attempts
                + ", dedup_key, headers, body, CAST(:error AS VARCHAR(2000)), statement_timestamp(), ordering_key FROM moved";
    }

    /**
     * Picks and locks the oldest requeueable dead letters (skipping rows others hold), deletes
     * exactly those by {@code ctid} (the dead-letter table has no key), and inserts what the delete
     * returns, all in one statement: the delete and the insert commit or fail together.
     */
    @Override
    String requeueDeadLetters(String q, String dlq) {
        return "WITH picked AS (SELECT d.ctid AS row_id FROM " + dlq + " AS d WHERE " + requeueable(q, dlq)
                + " ORDER BY d.failed_at, d.id LIMIT :n FOR UPDATE SKIP LOCKED),"
                + " moved AS (DELETE FROM " + dlq + " WHERE ctid = ANY(ARRAY(SELECT row_id FROM picked)) RETURNING *)"
                + " INSERT INTO " + q + " (" + REQUEUE_COLUMNS + ") SELECT priority, statement_timestamp(), enqueued_at,"
                + " 0, dedup_key, headers, body, last_error, ordering_key FROM moved ORDER BY failed_at, id";
    }

    /**
     * Oldest first: the ORDER BY keeps the plan on the index of {@code column}, so a batch reads only
     * the rows it deletes and an idle call with nothing to delete reads none.
     */
    @Override
    String deleteBefore(String table, String column) {
        return "DELETE FROM " + table + " WHERE ctid = ANY(ARRAY(SELECT ctid FROM " + table + " WHERE " + column
                + " < :cutoff ORDER BY " + column + " LIMIT :n FOR UPDATE SKIP LOCKED))";
    }

    @Override
    List<String> createJournalStatements(TableName journal) {
        String j = qualified(journal);
        return List.of(
                "CREATE TABLE IF NOT EXISTS " + j + " (" + journalColumns("TIMESTAMPTZ", "VARCHAR") + ")",
                "CREATE INDEX IF NOT EXISTS " + quote(journal.table() + "_at") + " ON " + j + " (completed_at)");
    }

    @Override
    List<String> createSubscriptionStatements(TableName table) {
        return List.of("CREATE TABLE IF NOT EXISTS " + qualified(table) + " ("
                + subscriptionColumns("TIMESTAMPTZ", "VARCHAR") + ")");
    }

    @Override
    String minuteOf(String timestamp) {
        return "date_trunc('minute', " + timestamp + ")";
    }

    @Override
    String millisBetween(String from, String to) {
        return "EXTRACT(EPOCH FROM (" + to + " - " + from + ")) * 1000";
    }

    @Override
    String minutesAgo(int minutes) {
        return "statement_timestamp() - INTERVAL '1 minute' * " + minutes;
    }

    /** The expired rows' ids, locked, skipping rows others hold; then one statement moves or deletes them. */
    @Override
    String sweepExpired(String q, String dlq, boolean discard) {
        String expired = "id = ANY(ARRAY(SELECT id FROM " + q + " WHERE " + expiredAndFree()
                + " ORDER BY expires_at LIMIT :n FOR UPDATE SKIP LOCKED))";
        if (discard) {
            return "DELETE FROM " + q + " WHERE " + expired;
        }
        return "WITH moved AS (DELETE FROM " + q + " WHERE " + expired + " RETURNING *) INSERT INTO " + dlq
                + " (" + DEAD_LETTER_COLUMNS + ") SELECT id, priority, visible_at, enqueued_at, attempts, dedup_key,"
                + " headers, body, CAST(:error AS VARCHAR(2000)), statement_timestamp(), ordering_key FROM moved";
    }

    @Override
    String peek(String q, String and) {
        // In the index's order: without it the planner may read the table from its start, past every hidden row.
        return "SELECT 1 FROM " + q + " AS m WHERE " + ready() + and + " ORDER BY " + DEQUEUE_ORDER + " LIMIT 1";
    }

    /** The due rows' ids, earliest first, locked, skipping rows others hold; then one update by id. */
    @Override
    String reveal(String q) {
        return "UPDATE " + q + " SET hidden = NULL WHERE id = ANY(ARRAY(SELECT id FROM " + q + " WHERE "
                + hiddenAndDue() + " ORDER BY visible_at LIMIT :n FOR UPDATE SKIP LOCKED))";
    }

    @Override
    String millisSince(String timestamp) {
        return "CAST(EXTRACT(EPOCH FROM (statement_timestamp() - " + timestamp + ")) * 1000 AS BIGINT)";
    }
}
