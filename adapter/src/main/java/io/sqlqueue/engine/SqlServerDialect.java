package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.TableDefinition.Column;
import io.sqlqueue.engine.TableDefinition.Index;
import io.sqlqueue.engine.TableDefinition.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Microsoft SQL Server: the single-statement dequeue of the seeds. A CTE picks the next rows with
 * {@code ROWLOCK, READPAST, UPDLOCK} (skip what other consumers hold, lock what we take, never
 * escalate), and a {@code DELETE}/{@code UPDATE … OUTPUT … WHERE EXISTS (… next …)} takes them by
 * their clustered key; that form is exact on SQL Server and accepted by T-SQL engines without
 * updatable CTEs.
 *
 * <p>{@code READPAST} is legal only under READ COMMITTED or REPEATABLE READ (error 650), so every
 * statement that reads with it sets READ COMMITTED first ({@link #READ_COMMITTED}), and claims carry
 * {@code READCOMMITTEDLOCK} so that they still lock under READ_COMMITTED_SNAPSHOT.
 *
 * <p>Keys compare exactly ({@link #sameKey}): key columns are declared {@link #EXACT_COLLATION},
 * whatever the database's collation.
 *
 * <p>The table is clustered on the dequeue order {@code (priority DESC, id)}: inserts append at
 * the end of their priority. Claims read a filtered index of the rows that are not hidden,
 * {@code (hidden, priority DESC, id) INCLUDE (visible_at, ordering_key) WHERE hidden IS NULL}, in order: it holds
 * all a claim looks at, so rows waiting for their time ({@link Dialect#HIDDEN_FROM_MILLIS}) are
 * not in its way. The filter is IS NULL, not a literal that forced parameterization could turn
 * into a parameter the filter no longer matches.
 */
final class SqlServerDialect extends Dialect {

    private static final String CLAIM_HINTS = "WITH (ROWLOCK, READPAST, UPDLOCK, READCOMMITTEDLOCK)";

    /**
     * The collation of key columns (dedup and ordering keys): code point by code point, so case and
     * accents count, whatever the database's collation (SQL Server's and Azure SQL's defaults ignore
     * case: a send whose dedup key matched another only in case stored nothing and returned the
     * other message's id). Trailing spaces still compare equal under every collation: see
     * {@link #sameKey}.
     */
    static final String EXACT_COLLATION = "Latin1_General_100_BIN2";

    private static final String KEY_TYPE = "NVARCHAR(200) COLLATE " + EXACT_COLLATION;

    /**
     * The start of every statement that reads with READPAST. Statements run as prepared statements,
     * remote procedure calls whose SET options SQL Server restores when they return, so the
     * session's own level (set through JDBC, in T-SQL, or left on a pooled connection: the driver's
     * cached level cannot tell) is untouched after it, and nothing has to be read or restored here.
     * A transaction begun under SNAPSHOT may switch to READ COMMITTED and back. Only a real SQL Server
     * shows the restore; Babelfish refuses a SET that changes the level inside a prepared
     * statement, and runs this one only on a session already at READ COMMITTED.
     */
    private static final String READ_COMMITTED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED; ";

    /**
     * Pins the plan of the claims' and leases' join of the rows chosen to the table: a nested loop,
     * a seek of the clustered index per chosen row, whatever the statistics say (stale ones could
     * make it a scan join that reads, and locks its way through, the whole table). Only a real SQL
     * Server shows its plans; Babelfish accepts the hint and plans as PostgreSQL does.
     */
    private static final String LOOP_JOIN = " OPTION (LOOP JOIN)";

    /** Rows per batch of inserts: 9 parameters a row, under the 2,100-parameter limit. */
    private static final int ROWS_PER_INSERT = 230;

    @Override
    public String name() {
        return "sqlserver";
    }

    @Override
    String quote(String identifier) {
        return "[" + identifier + "]";
    }

    @Override
    String now() {
        return "SYSUTCDATETIME()";
    }

    @Override
    String nowPlus(String p) {
        // DATEADD takes an INT: whole seconds and the remaining milliseconds separately.
        return "DATEADD(millisecond, :" + p + "_ms, DATEADD(second, :" + p + "_s, SYSUTCDATETIME()))";
    }

    @Override
    Instant readInstant(ResultSet rs, int column) throws SQLException {
        LocalDateTime t = rs.getObject(column, LocalDateTime.class);
        return t == null ? null : t.toInstant(ZoneOffset.UTC);
    }

    @Override
    boolean isUniqueViolation(SQLException e) {
        return e.getErrorCode() == 2601 || e.getErrorCode() == 2627;
    }

    /** 1205: chosen as deadlock victim; 1222: lock request time-out (SET LOCK_TIMEOUT). */
    @Override
    boolean isLockConflictCode(SQLException e) {
        return e.getErrorCode() == 1205 || e.getErrorCode() == 1222 || super.isLockConflictCode(e);
    }

    @Override
    String typeOf(Column column) {
        return switch (column.type()) {
            case IDENTITY -> "BIGINT IDENTITY(1,1)";
            case BIGINT, INTEGER, SMALLINT -> column.type().name();
            case TIMESTAMP -> "DATETIME2(7)";
            case KEY -> KEY_TYPE;
            // Keys that differ only in trailing spaces are equal to any collation: the length tells
            // them apart in the unique index (see sameKey).
            case KEY_LENGTH -> "AS DATALENGTH(" + column.keyColumn() + ")";
            case TEXT -> "NVARCHAR(" + column.length() + ")";
            case CODE -> "VARCHAR(" + column.length() + ")";
            case LONG_TEXT -> "NVARCHAR(MAX)";
            case BYTES -> "VARBINARY(MAX)";
        };
    }

    @Override
    String currentSchema() {
        return "SCHEMA_NAME()";
    }

    /** Babelfish names indexes otherwise than created; their first columns are what {@link TableCatalog#hasIndex} reads. */
    @Override
    String indexLeads() {
        return "SELECT i.name, c.name FROM sys.indexes i JOIN sys.index_columns ic ON ic.object_id = i.object_id"
                + " AND ic.index_id = i.index_id AND ic.key_ordinal = 1 JOIN sys.columns c ON c.object_id = ic.object_id"
                + " AND c.column_id = ic.column_id WHERE i.object_id = OBJECT_ID(QUOTENAME(?) + '.' + QUOTENAME(?))";
    }

    @Override
    boolean clusters() {
        return true;
    }

    @Override
    String indexKind(Index index) {
        return index.kind() == Kind.CLUSTERED || index.kind() == Kind.TABLE_ORDER ? "CLUSTERED " : "NONCLUSTERED ";
    }

    /** Named {@code <table>_<column>_df}, so that it can be found and dropped by name. */
    @Override
    String defaultClause(TableName table, Column column) {
        return " CONSTRAINT " + quote(table.table() + "_" + column.name() + "_df") + " DEFAULT " + defaultValue(column);
    }

    @Override
    String addDefault(TableName table, Column column) {
        return "ALTER TABLE " + qualified(table) + " ADD" + defaultClause(table, column) + " FOR " + column.name();
    }

    @Override
    String addColumn(TableName table, Column column) {
        return "ALTER TABLE " + qualified(table) + " ADD " + columnDefinition(table, column);
    }

    @Override
    String primaryKey(TableName table, List<String> columns, boolean nonclustered) {
        return nonclustered ? "CONSTRAINT " + quote(table.table() + "_pk") + " PRIMARY KEY NONCLUSTERED ("
                + String.join(", ", columns) + ")" : super.primaryKey(table, columns, false);
    }

    /**
     * Row locks only, never a table lock ({@link TableDefinition#rowLocksOnly()}). Every other
     * statement takes at most {@link QueueTable#MAX_CLAIM} rows.
     */
    @Override
    List<String> tableOptions(TableDefinition table, TableName name) {
        return table.rowLocksOnly() ? List.of("ALTER TABLE " + qualified(name) + " SET (LOCK_ESCALATION = DISABLE)")
                : List.of();
    }

    /** Besides names that differ in case alone: tables with triggers, and key columns of a loose collation ({@link SqlServerTableCheck}). */
    @Override
    void checkExisting(Connection c, TableName queue, TableName deadLetters) throws SQLException {
        super.checkExisting(c, queue, deadLetters);
        new SqlServerTableCheck(this, c).check(queue, deadLetters);
    }

    /** Errors 334 and 331, a trigger added to a table after the adapter checked it, say which table and what to do. */
    @Override
    SQLException explained(SQLException e, TableName queue) {
        if (e.getErrorCode() != 334 && e.getErrorCode() != 331) {
            return e;
        }
        return new SQLException("queue " + queue + ": a trigger was enabled on its queue or dead-letter table, and SQL"
                + " Server refuses the adapter's OUTPUT clause on such a table (error " + e.getErrorCode() + "); disable"
                + " or drop the trigger: " + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
    }

    /**
     * Code point by code point ({@link #EXACT_COLLATION}, which the key columns of tables made by
     * this release have, and which the {@code COLLATE} imposes on those of earlier ones), and by
     * length: SQL Server pads the shorter string with spaces before comparing, under every
     * collation, so {@code 'k'} and {@code 'k '} are equal to {@code =}. The plain {@code =} first
     * keeps an index seek on a key column of any collation; the other two decide.
     */
    @Override
    String sameKey(String a, String b) {
        return a + " = " + b + " AND " + a + " COLLATE " + EXACT_COLLATION + " = " + b
                + " AND DATALENGTH(" + a + ") = DATALENGTH(" + b + ")";
    }

    /** As NVARCHAR whatever the driver sends (sendStringParametersAsUnicode=false sends VARCHAR): lengths compare alike. */
    @Override
    String keyParameter(String name) {
        return "CAST(:" + name + " AS NVARCHAR(200))";
    }

    /**
     * A transaction-owned application lock, taken by a plain batch rather than a prepared
     * statement: a remote procedure call that begins a transaction and returns with it open ends
     * with error 266 (@@TRANCOUNT differs from its start). An EXEC opens no transaction, so without
     * one the lock call returns -999 and takes nothing (shown over TDS by Babelfish): the batch
     * begins the transaction where none is open, and a negative result fails. Under
     * IMPLICIT_TRANSACTIONS, which mssql-jdbc's {@code setAutoCommit(false)} sets, BEGIN TRANSACTION
     * opens two levels (the implicit one and its own), and the driver's commit would end only one,
     * leaving the lock and the DDL in an open transaction: the inner level is committed at once,
     * so one level is left for the caller's commit (seen over TDS on Babelfish, as SQL Server
     * documents it). The resource is a validated table name, quoted as a literal.
     */
    @Override
    void lockForCreation(Connection c, String resource) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DECLARE @granted INT, @began INT = @@TRANCOUNT;"
                    + " IF @began = 0 BEGIN TRANSACTION; IF @began = 0 AND @@TRANCOUNT > 1 COMMIT;"
                    + " EXEC @granted = sp_getapplock @Resource = N'" + resource.replace("'", "''") + "',"
                    + " @LockMode = 'Exclusive', @LockOwner = 'Transaction', @LockTimeout = 60000;"
                    + " IF @granted < 0 THROW 51000, 'sp_getapplock refused the lock serializing table creation', 1;");
        }
    }

    @Override
    String insertReturningId(String q, String columns, String source) {
        return "INSERT INTO " + q + " " + columns + " OUTPUT inserted.id " + source;
    }

    @Override
    String ifKeyAbsent(String q, String values) {
        // UPDLOCK + HOLDLOCK holds the key range, so two racing inserts of one key serialize here; the
        // range of the filtered index on dedup_key, which SQL Server reads only for a predicate that
        // states its filter (IS NOT NULL): without it, the range could be the clustered index's.
        return "SELECT " + values + " WHERE NOT EXISTS (SELECT 1 FROM " + q + " WITH (UPDLOCK, HOLDLOCK)"
                + " WHERE dedup_key IS NOT NULL AND " + sameKey("dedup_key", keyParameter("dedupKey")) + ")";
    }

    @Override
    String insertForBatch(String q) {
        return null; // mssql-jdbc returns no generated keys for batches: see insertBatch
    }

    @Override
    String skippingIsolation() {
        return READ_COMMITTED;
    }

    /**
     * The seeds' locking read: the first :n rows in order, held (UPDLOCK) until the transaction
     * ends, skipping rows others hold. Fewer than 5,000 row locks ({@link QueueTable#MAX_CLAIM}), so
     * SQL Server does not escalate them to a table lock; only a real SQL Server shows that,
     * Babelfish ignores the hints.
     */
    @Override
    String lockedRead(String columns, String from, String where, String order) {
        return "SELECT TOP (:n) " + columns + " FROM " + from + " " + CLAIM_HINTS + " WHERE " + where + " ORDER BY " + order;
    }

    /**
     * The CTE {@code next} picks the first :n ready rows in the ready index's order with
     * {@link #lockedRead}, skipping rows other transactions hold and keeping the rest (UPDLOCK)
     * until the statement's transaction ends; named next_priority and next_id, so that the DML names
     * its own columns without a prefix. The DML then takes those rows matched on the whole clustered
     * key, so the target is found by a clustered seek and its other indexes are maintained after it.
     * Lock order: the CTE locks the rows' ready-index entries first, a statement by id
     * ({@link #byId}) the clustered row first, so a claim and a statement by id on the same ready
     * row can deadlock. The victim loses nothing: a claim rolls back uncounted, a statement in
     * auto-commit is tried again ({@link QueueTable}), an ack that fails leaves the message to its
     * new holder. {@code READPAST} on the target keeps it from waiting whatever the plan; the
     * repeated {@code visible_at} keeps an engine that waits instead of skipping (Babelfish) from
     * taking a row leased meanwhile; {@code OUTPUT} without {@code INTO} is why tables with
     * triggers are refused ({@link #checkExisting}). Only a real SQL Server shows the locking. Why
     * this shape and no other (what Babelfish showed of the alternatives): docs/sqlserver.md,
     * "The claim statement: case history".
     *
     * <p>Ordered delivery ({@link #headOfKey}) reads the earlier rows of a key without hints, and not
     * with READPAST: a row that a consumer has deleted and not yet committed must still count,
     * and READPAST would skip it (so would NOLOCK, which reads the delete), letting the next
     * message of the key out while the first may still roll back. Under READ_COMMITTED_SNAPSHOT
     * that read sees the last committed version and waits for nothing; under locking READ
     * COMMITTED it waits until the transaction holding that earlier row ends (a delivery of the
     * same key in flight), then goes on. Only a real SQL Server shows the waiting; Babelfish
     * ignores table hints and reads versions, as PostgreSQL does.
     */
    @Override
    Dml nextReady(Dml.Change change, String q, String and) {
        return new Dml(READ_COMMITTED + "WITH next (next_priority, next_id) AS ("
                + lockedRead("priority, id", q + " AS m", ready() + and, DEQUEUE_ORDER) + ") ",
                change.head("", " WITH (ROWLOCK, READPAST)"), "WHERE EXISTS (SELECT 1 FROM next WHERE next_priority = priority"
                + " AND next_id = id) AND visible_at <= SYSUTCDATETIME()", LOOP_JOIN, change.deletes());
    }

    /** {@code OUTPUT} between the statement and its condition: {@code deleted.} rows of a delete, {@code inserted.} of an update. */
    @Override
    String returningMessages(Dml dml) {
        return dml.before() + dml.head() + " OUTPUT " + messageColumns(dml.deletes() ? "deleted." : "inserted.") + " "
                + dml.tail() + dml.after();
    }

    /**
     * {@code OUTPUT … INTO}, which SQL Server refuses into a table with an enabled trigger (see
     * {@link #checkExisting}), foreign key or CHECK constraint (the queue and dead-letter tables have
     * none). It inserts in no order of its own: {@code order} is not kept.
     */
    @Override
    String moveRows(Dml delete, String into, UnaryOperator<String> values, String order) {
        return delete.before() + delete.head() + " OUTPUT " + values.apply("deleted.") + " INTO " + into + " "
                + delete.tail() + delete.after();
    }

    /**
     * {@code DELETE TOP} / {@code UPDATE TOP} in no particular order: every row is reached by the
     * batches that follow, so no order is needed. Through the filtered index of the condition (its
     * own {@code IS NOT NULL} lets the optimiser match it), which it locks before the clustered row,
     * the reverse of a claim's order and of a statement by id: a sweep or reveal and a claim, or the
     * ack of a lease that has just run out, can deadlock over the same row. The victim loses nothing
     * (a sweep or reveal is tried again at the next one; a claim in a delivery rolls back uncounted;
     * an ack that fails leaves the message to be delivered again). Only a real SQL Server shows the
     * locking.
     */
    @Override
    Dml someRows(Dml.Change change, String where, String order, String key) {
        return new Dml(READ_COMMITTED, change.head("TOP (:n) ", " WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK)"),
                "WHERE " + where, "", change.deletes());
    }

    /**
     * The join form (T-SQL engines without updatable CTEs accept it, and it is as exact on SQL
     * Server): the first rows in order, picked by {@link #lockedRead}, deleted through a join on
     * {@code match} (the table has no unique key). The join is pinned to nested loops.
     */
    @Override
    Dml oldestRows(Dml.Change change, String alias, String where, String order, String... match) {
        StringBuilder picked = new StringBuilder();
        StringBuilder on = new StringBuilder();
        for (String column : match) {
            picked.append(picked.length() == 0 ? "" : ", ").append(alias).append('.').append(column);
            on.append(on.length() == 0 ? "" : " AND ").append("t.").append(column).append(" = x.").append(column);
        }
        return new Dml(READ_COMMITTED, "DELETE t", "FROM " + change.table() + " AS t WITH (ROWLOCK, READPAST) INNER JOIN ("
                + lockedRead(picked.toString(), change.table() + " AS " + alias, where, order) + ") AS x ON " + on,
                LOOP_JOIN, true);
    }

    /**
     * The last committed row where the database keeps row versions (READ_COMMITTED_SNAPSHOT on,
     * Azure SQL Database's default): a plain read at READ COMMITTED reads the version and waits for
     * nothing, as on PostgreSQL. Otherwise the row as it is now, uncommitted changes included
     * (NOLOCK): a locking read would wait for the transaction holding the row, for a message in
     * delivery the whole delivery, and could deadlock with what the caller's own transaction holds
     * (the business rows the bean also writes). So without versions a row another transaction has
     * deleted and not committed is not seen: a message whose transacted delivery has taken it reads
     * as not queued; and one another transaction has inserted and not committed is seen (PostgreSQL
     * sees the first and not the second). The current database's row of {@code sys.databases} is
     * visible to every login. Which branch runs, and that neither waits, only a real SQL Server shows:
     * Babelfish reports READ_COMMITTED_SNAPSHOT on and reads versions whatever the hints.
     */
    @Override
    String lastCommitted(String columns, String q, String where) {
        return READ_COMMITTED + "IF EXISTS (SELECT 1 FROM sys.databases WHERE database_id = DB_ID()"
                + " AND is_read_committed_snapshot_on = 1) SELECT " + columns + " FROM " + q + " WHERE " + where
                + " ELSE SELECT " + columns + " FROM " + q + readUncommitted() + " WHERE " + where;
    }

    /**
     * {@code TOP}, as the claims; READPAST, as the peek: a row another transaction holds is not
     * waited for (it is not takeable meanwhile anyway), and READCOMMITTEDLOCK makes READPAST legal
     * under READ_COMMITTED_SNAPSHOT.
     */
    @Override
    String firstRows(String columns, String from, String where, String order) {
        return READ_COMMITTED + "SELECT TOP (:n) " + columns + " FROM " + from + " WITH (READPAST, READCOMMITTEDLOCK)"
                + " WHERE " + where + " ORDER BY " + order;
    }

    /** Any ready row answers, so no order; READPAST: a row in flight is not waited for. */
    @Override
    String anyRow(String columns, String from, String where, String order) {
        return "SELECT TOP (1) " + columns + " FROM " + from + " WITH (READPAST, READCOMMITTEDLOCK) WHERE " + where;
    }

    /** None: T-SQL has no array parameter (see {@link #deleteHeld(Connection, QueueSql, Long[])}). */
    @Override
    String deleteHeld(String q) {
        return null;
    }

    /**
     * One statement with a parameter per id ({@link QueueTable#MAX_CLAIM} stays under the 2,100
     * parameters a request takes), so one plan per count: the reader's counts are mostly its claim
     * size. The rows are held by this transaction, so the lock order of the seek does not matter:
     * no other transaction can hold one of them; READPAST keeps a plan that scans instead of
     * seeking from waiting on the rows other consumers hold on its way.
     */
    @Override
    int deleteHeld(Connection c, QueueSql sql, Long[] ids) throws SQLException {
        StringBuilder in = new StringBuilder(READ_COMMITTED).append("DELETE FROM ").append(sql.tableName)
                .append(" WITH (ROWLOCK, READPAST) WHERE id IN (?");
        in.append(",?".repeat(ids.length - 1)).append(')');
        try (PreparedStatement s = c.prepareStatement(in.toString())) {
            for (int i = 0; i < ids.length; i++) {
                s.setLong(i + 1, ids[i]);
            }
            return s.executeUpdate();
        }
    }

    /**
     * One row by {@code :id}, found through the clustered key {@code (priority, id)}: the priority
     * is read from the primary key's index (which holds it as the row locator, so the read touches
     * nothing else), then the row is changed through a clustered seek and its non-clustered
     * indexes after it, the order claims and leases lock in. By {@code id} alone the optimiser
     * seeks the primary key first, the reverse order, and an ack could deadlock with a claim of
     * the same row (a lease that ran out). Which index the optimiser seeks only a real SQL Server
     * shows; the clustered seek needs no lookup, so it is the cheaper plan.
     */
    @Override
    String byId(String q) {
        return "priority = (SELECT p.priority FROM " + q + " AS p WHERE p.id = :id) AND id = :id";
    }

    /** NVARCHAR as it is: a CAST to VARCHAR would lose what the code page cannot hold. */
    @Override
    String errorValue() {
        return ":error";
    }

    @Override
    String errorClassValue() {
        return ":errorClass";
    }

    /** SQL Server has PERCENTILE_CONT only as a window function: one row per minute through DISTINCT. */
    @Override
    String perMinuteTimings(String journal, int minutes) {
        String perMinute = " OVER (PARTITION BY minute_start)";
        return "SELECT DISTINCT minute_start, COUNT(*)" + perMinute + " AS messages,"
                + " COUNT(CASE WHEN outcome = 'dead_lettered' THEN 1 END)" + perMinute + " AS dead_lettered,"
                + " AVG(queue_ms)" + perMinute + " AS avg_queue_ms,"
                + " PERCENTILE_CONT(0.95) WITHIN GROUP (ORDER BY queue_ms)" + perMinute + " AS p95_queue_ms,"
                + " AVG(processing_ms)" + perMinute + " AS avg_processing_ms,"
                + " PERCENTILE_CONT(0.95) WITHIN GROUP (ORDER BY processing_ms)" + perMinute + " AS p95_processing_ms"
                + " FROM (" + journalTimings(journal, minutes, "FLOAT") + ") AS t"
                + " ORDER BY minute_start";
    }

    @Override
    String minuteOf(String timestamp) {
        return "DATEADD(minute, DATEDIFF(minute, 0, " + timestamp + "), 0)";
    }

    @Override
    String millisBetween(String from, String to) {
        return "DATEDIFF_BIG(millisecond, " + from + ", " + to + ")";
    }

    @Override
    String minutesAgo(int minutes) {
        return "DATEADD(minute, -" + minutes + ", SYSUTCDATETIME())";
    }

    /** DATETIME2 has no zone: the tables hold UTC, so an instant goes in as its UTC local time. */
    @Override
    Object timestampParameter(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    @Override
    String millisSince(String timestamp) {
        return "DATEDIFF_BIG(millisecond, " + timestamp + ", SYSUTCDATETIME())";
    }

    @Override
    String readUncommitted() {
        return " WITH (NOLOCK)";
    }

    /**
     * mssql-jdbc returns no generated keys from a batch, so a chunk of rows goes in as one batch of
     * single-row {@code INSERT … OUTPUT inserted.id}, whose results come back in statement order,
     * one id each. (A multi-row {@code INSERT … OUTPUT … SELECT … ORDER BY} is exact on SQL Server
     * too, but T-SQL engines such as Babelfish refuse OUTPUT with ORDER BY.)
     */
    @Override
    long[] insertBatch(Connection c, QueueSql sql, List<OutgoingMessage> messages) throws SQLException {
        long[] ids = new long[messages.size()];
        for (int from = 0; from < messages.size(); from += ROWS_PER_INSERT) {
            List<OutgoingMessage> chunk = messages.subList(from, Math.min(from + ROWS_PER_INSERT, messages.size()));
            SqlTemplate insert = new SqlTemplate(insertChunk(sql, chunk.size()));
            try (SqlTemplate.Bound b = insert.prepare(c)) {
                for (int i = 0; i < chunk.size(); i++) {
                    OutgoingMessage m = chunk.get(i);
                    b.setInt("p" + i, m.priority())
                            .setMillis("d" + i, m.delay().toMillis())
                            .setMillis("t" + i, m.timeToLive())
                            .setString("k" + i, m.orderingKey())
                            .setString("h" + i, HeadersJson.write(m.headers()))
                            .setBytes("b" + i, m.body());
                }
                int read = 0;
                Statement st = b.statement();
                for (boolean isResultSet = b.statement().execute(); isResultSet || st.getUpdateCount() != -1;
                        isResultSet = st.getMoreResults()) {
                    if (!isResultSet) {
                        continue;
                    }
                    try (ResultSet rs = st.getResultSet()) {
                        while (rs.next()) {
                            if (read == chunk.size()) {
                                throw new SQLException("more ids than the " + chunk.size() + " rows inserted");
                            }
                            ids[from + read++] = rs.getLong(1);
                        }
                    }
                }
                if (read != chunk.size()) {
                    throw new SQLException("inserted " + read + " rows for " + chunk.size() + " messages");
                }
            }
        }
        return ids;
    }

    private String insertChunk(QueueSql sql, int rows) {
        StringBuilder batch = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            batch.append(i == 0 ? "" : " ").append("INSERT INTO ").append(sql.tableName)
                    .append(" (priority, visible_at, enqueued_at, headers, body, expires_at, ordering_key, hidden)")
                    .append(" OUTPUT inserted.id VALUES (:p").append(i).append(", ").append(nowPlus("d" + i))
                    .append(", SYSUTCDATETIME(), :h").append(i).append(", :b").append(i).append(", ")
                    .append(nowPlus("t" + i)).append(", :k").append(i).append(", ").append(hiddenFor("d" + i))
                    .append(");");
        }
        return batch.toString();
    }
}
