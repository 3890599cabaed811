package io.sqlqueue.engine;

import io.sqlqueue.engine.TableDefinition.Column;
import io.sqlqueue.engine.TableDefinition.Index;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.UnaryOperator;
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

    @Override
    String typeOf(Column column) {
        return switch (column.type()) {
            case IDENTITY -> "BIGINT GENERATED ALWAYS AS IDENTITY";
            case BIGINT, INTEGER, SMALLINT -> column.type().name();
            case TIMESTAMP -> "TIMESTAMPTZ";
            case KEY -> "VARCHAR(200)";
            case KEY_LENGTH -> null;
            case TEXT, CODE -> "VARCHAR(" + column.length() + ")";
            case LONG_TEXT -> "TEXT";
            case BYTES -> "BYTEA";
        };
    }

    @Override
    String currentSchema() {
        return "current_schema";
    }

    /** Valid ones only: a build that was cut off leaves an invalid index behind, which {@link #buildIndexOnline} replaces. */
    @Override
    String indexLeads() {
        return "SELECT x.relname, a.attname FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid"
                + " JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
                + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]"
                + " WHERE n.nspname = ? AND t.relname = ? AND i.indisvalid";
    }

    @Override
    boolean buildsIndexesOnline() {
        return true;
    }

    /**
     * {@code CREATE INDEX CONCURRENTLY}: a plain build would block every send and claim until it
     * has read the whole table. CONCURRENTLY cannot run in a transaction, so this runs in
     * auto-commit; a session advisory lock, taken by polling (a waiting statement would hold a
     * snapshot the build itself waits for), keeps two starting servers from building it at once.
     * An invalid index left by a build that was cut off is dropped and built again. The build
     * waits for the transactions running when it starts, on any table, to end.
     */
    @Override
    void buildIndexOnline(Connection c, TableDefinition definition, TableName table, Index index) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        long key = ("sqlqueue:index:" + table).hashCode();
        String name = (table.schema() == null ? "" : quote(table.schema()) + ".") + quote(table.table() + index.suffix());
        try (Statement s = c.createStatement()) {
            while (!exists(c, "SELECT 1 WHERE pg_try_advisory_lock(" + key + ")")) {
                pause();
            }
            try {
                if (!TableCatalog.read(c, this, table).hasIndex(definition, table, index, this)) {
                    s.execute("DROP INDEX CONCURRENTLY IF EXISTS " + name);
                    LOG.info(() -> "building index " + name + " on the table " + table + " concurrently (a table of"
                            + " an earlier release); sends and claims go on meanwhile");
                    s.execute(createIndex(definition, table, index).replaceFirst("^CREATE INDEX ", "CREATE INDEX CONCURRENTLY "));
                }
            } finally {
                s.execute("SELECT pg_advisory_unlock(" + key + ")");
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
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
    String insertReturningId(String q, String columns, String source) {
        return "INSERT INTO " + q + " " + columns + " " + source + " RETURNING id";
    }

    @Override
    String ifKeyAbsent(String q, String values) {
        return "VALUES (" + values + ") ON CONFLICT (dedup_key) WHERE dedup_key IS NOT NULL DO NOTHING";
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

    /** {@code FOR UPDATE SKIP LOCKED}: locks what it returns, skips what others hold. */
    @Override
    String lockedRead(String columns, String from, String where, String order) {
        return "SELECT " + columns + " FROM " + from + " WHERE " + where + " ORDER BY " + order
                + " LIMIT :n FOR UPDATE SKIP LOCKED";
    }

    /**
     * The ids of the next :n ready rows, locked, skipping rows others hold. As {@code id =
     * ANY(ARRAY(…))} the subquery runs once as an InitPlan and the outer statement looks the ids up
     * by primary key: a join would let a generic plan (pgjdbc prepares server-side from the 5th
     * execution) assume LIMIT $1 returns 10% of the table and hash-join a full scan of it.
     */
    @Override
    Dml nextReady(Dml.Change change, String q, String and) {
        return picked(change, "id", q + " AS m", ready() + and, DEQUEUE_ORDER);
    }

    /**
     * As {@link #nextReady}, in {@code order}: the ORDER BY keeps the plan on the index of the
     * condition, so a batch reads only the rows it takes and an idle call with nothing to take reads
     * none. A table without a key is matched on {@code ctid}, the row's address.
     */
    @Override
    Dml someRows(Dml.Change change, String where, String order, String key) {
        String k = key == null ? "ctid" : key;
        return picked(change, k, change.table(), where, order);
    }

    /** On {@code ctid}, the row's address: {@code match} is not needed. */
    @Override
    Dml oldestRows(Dml.Change change, String alias, String where, String order, String... match) {
        return picked(change, "ctid", change.table() + " AS " + alias, where, order);
    }

    private Dml picked(Dml.Change change, String key, String from, String where, String order) {
        return Dml.where(change, key + " = ANY(ARRAY(" + lockedRead(key, from, where, order) + "))");
    }

    /**
     * Only autovacuum's ANALYZE gives PostgreSQL its column statistics, and it finds a queue table
     * that is drained within seconds empty more often than not (an ANALYZE of an empty table keeps
     * what it had, but gathers nothing). Without them the planner guesses a third for each
     * condition of the pick, and once a table last vacuumed empty fills, it reads the whole table
     * and sorts it for each lease of eight never-attempted messages instead of reading eight
     * entries of the ready index: measured, 3.5 ms a lease against 0.07 ms, on 10,000 messages.
     * {@code attempts} stands for the columns: ANALYZE gathers them all at once.
     */
    @Override
    String columnStatistics() {
        return "SELECT COUNT(*) FROM pg_stats s JOIN pg_namespace n ON n.nspname = s.schemaname"
                + " JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.tablename"
                + " WHERE c.oid = to_regclass(:table) AND s.attname = 'attempts'";
    }

    @Override
    String gatherStatistics(String q) {
        return "ANALYZE " + q;
    }

    @Override
    String returningMessages(Dml dml) {
        return dml.before() + dml.head() + " " + dml.tail() + " RETURNING " + messageColumns("") + dml.after();
    }

    /** The delete in a CTE, its rows inserted from what it returns: both commit or fail together. */
    @Override
    String moveRows(Dml delete, String into, UnaryOperator<String> values, String order) {
        return delete.before() + "WITH moved AS (" + delete.head() + " " + delete.tail() + " RETURNING *) INSERT INTO "
                + into + " SELECT " + values.apply("") + " FROM moved" + (order == null ? "" : " ORDER BY " + order)
                + delete.after();
    }

    @Override
    String anyRow(String columns, String from, String where, String order) {
        // In the index's order: without it the planner may read the table from its start, past every hidden row.
        return "SELECT " + columns + " FROM " + from + " WHERE " + where + " ORDER BY " + order + " LIMIT 1";
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

    @Override
    String millisSince(String timestamp) {
        return "CAST(EXTRACT(EPOCH FROM (statement_timestamp() - " + timestamp + ")) * 1000 AS BIGINT)";
    }
}
