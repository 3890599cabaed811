package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Microsoft SQL Server: the single-statement dequeue of the seeds. A CTE picks the next rows with
 * {@code ROWLOCK, READPAST, UPDLOCK} (skip what other consumers hold, lock what we take, never
 * escalate), and a {@code DELETE}/{@code UPDATE … OUTPUT … WHERE EXISTS (… next …)} takes them by
 * their clustered key; that form is exact on SQL Server and accepted by T-SQL engines without
 * updatable CTEs.
 *
 * <p>{@code READPAST} is legal only under READ COMMITTED or REPEATABLE READ (error 650), so
 * claims pin READ COMMITTED when the connection runs at another level, and carry
 * {@code READCOMMITTEDLOCK} so that they still lock under READ_COMMITTED_SNAPSHOT.
 *
 * <p>The table is clustered on the dequeue order {@code (priority DESC, id)}: inserts append at
 * the end of their priority. Claims read a filtered index of the rows that are not hidden,
 * {@code (hidden, priority DESC, id) INCLUDE (visible_at) WHERE hidden IS NULL}, in order: it holds
 * all a claim looks at, so rows waiting for their time ({@link Dialect#HIDDEN_FROM_MILLIS}) are
 * not in its way. The filter is IS NULL, not a literal that forced parameterization could turn
 * into a parameter the filter no longer matches.
 */
final class SqlServerDialect extends Dialect {

    private static final String CLAIM_HINTS = "WITH (ROWLOCK, READPAST, UPDLOCK, READCOMMITTEDLOCK)";

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
    List<String> createStatements(TableName queue, TableName deadLetters) {
        String q = qualified(queue);
        String dlq = qualified(deadLetters);
        String t = queue.table();
        String d = deadLetters.table();
        return List.of(
                "IF OBJECT_ID(N'" + q + "', N'U') IS NULL BEGIN"
                        + " CREATE TABLE " + q + " ("
                        + "id BIGINT IDENTITY(1,1) NOT NULL, "
                        + "priority SMALLINT NOT NULL DEFAULT 0, "
                        + "visible_at DATETIME2(7) NOT NULL CONSTRAINT " + quote(t + "_visible_at_df")
                        + " DEFAULT SYSUTCDATETIME(), "
                        + "enqueued_at DATETIME2(7) NOT NULL CONSTRAINT " + quote(t + "_enqueued_at_df")
                        + " DEFAULT SYSUTCDATETIME(), "
                        + "attempts INT NOT NULL DEFAULT 0, "
                        + "dedup_key NVARCHAR(200) NULL, "
                        + "headers NVARCHAR(MAX) NULL, "
                        + "body VARBINARY(MAX) NOT NULL, "
                        + "last_error NVARCHAR(2000) NULL, "
                        + "lease_token BIGINT NULL, "
                        + "expires_at DATETIME2(7) NULL, "
                        + "ordering_key NVARCHAR(200) NULL, "
                        + "hidden SMALLINT NULL, "
                        + "CONSTRAINT " + quote(t + "_pk") + " PRIMARY KEY NONCLUSTERED (id)); "
                        + "CREATE UNIQUE CLUSTERED INDEX " + quote(t + "_dequeue") + " ON " + q + " (priority DESC, id); "
                        + "CREATE UNIQUE NONCLUSTERED INDEX " + quote(t + "_dedup") + " ON " + q
                        + " (dedup_key) WHERE dedup_key IS NOT NULL; "
                        + "END",
                "IF OBJECT_ID(N'" + dlq + "', N'U') IS NULL BEGIN"
                        + " CREATE TABLE " + dlq + " ("
                        + "id BIGINT NOT NULL, "
                        + "priority SMALLINT NOT NULL, "
                        + "visible_at DATETIME2(7) NOT NULL, "
                        + "enqueued_at DATETIME2(7) NOT NULL, "
                        + "attempts INT NOT NULL, "
                        + "dedup_key NVARCHAR(200) NULL, "
                        + "headers NVARCHAR(MAX) NULL, "
                        + "body VARBINARY(MAX) NOT NULL, "
                        + "last_error NVARCHAR(2000) NULL, "
                        + "failed_at DATETIME2(7) NOT NULL, "
                        + "ordering_key NVARCHAR(200) NULL); "
                        + "CREATE CLUSTERED INDEX " + quote(d + "_failed") + " ON " + dlq + " (failed_at, id); "
                        + "END",
                // On its own, so that dead-letter tables created before the requeue existed get it too.
                indexUnlessOneLeadsWith(dlq, "dedup_key", quote(d + "_dedup"),
                        "(dedup_key, failed_at, id) WHERE dedup_key IS NOT NULL"),
                // Tables made before the clock defaults existed get them: a catalog change only.
                clockDefault(q, t, "visible_at"),
                clockDefault(q, t, "enqueued_at"),
                // Tables made before expiry and ordering keys existed get their columns: nullable, so a
                // catalog change only.
                addColumnIfMissing(q, "expires_at", "DATETIME2(7)"),
                addColumnIfMissing(q, "ordering_key", "NVARCHAR(200)"),
                addColumnIfMissing(dlq, "ordering_key", "NVARCHAR(200)"),
                // Ordered delivery probes it once per row a claim looks at. Built offline here: on a
                // populated table of an earlier release, SQL Server's offline build holds a shared
                // table lock, which blocks sends and claims, until it has read the table; where that is
                // too long, an administrator builds it first, WITH (ONLINE = ON) on editions that have
                // it (admin/sqlserver-schema.sql has the statement), and this finds it.
                indexUnlessOneLeadsWith(q, "ordering_key", quote(t + "_ordering"),
                        "(ordering_key, id) WHERE ordering_key IS NOT NULL"),
                // The expiry sweep's, built the same way.
                indexUnlessOneLeadsWith(q, "expires_at", quote(t + "_expiry"),
                        "(expires_at) WHERE expires_at IS NOT NULL"),
                // Tables made before hidden rows existed get the column (nullable: a catalog change only)
                addColumnIfMissing(q, "hidden", "SMALLINT"),
                // The claims' ready index and the reveal's index of hidden rows, built the same way.
                indexUnlessOneLeadsWith(q, "hidden", quote(t + "_ready"),
                        "(hidden, priority DESC, id) INCLUDE (visible_at) WHERE hidden IS NULL"),
                indexUnlessOneLeadsWith(q, "visible_at", quote(t + "_hidden"),
                        "(visible_at) WHERE hidden IS NOT NULL"),
                // Claims return their rows with OUTPUT (error 334 on a table with an enabled
                // trigger), and dead-lettering and requeueing move rows with OUTPUT … INTO the other
                // table (error 331 on such a target): say so at startup, not at the first claim.
                refuseTriggers(q, "the queue table " + t, "claims return their rows with OUTPUT, which SQL Server"
                        + " refuses on such a table (error 334)"),
                refuseTriggers(dlq, "the dead-letter table " + d, "dead letters are moved into it with"
                        + " OUTPUT … INTO, which SQL Server refuses on such a table (error 331)"));
    }

    /**
     * Creates a non-clustered index on {@code table} unless one of its indexes has {@code firstColumn}
     * as its first key column. Found by that column, not by name: T-SQL engines that keep other
     * names in sys.indexes (Babelfish) would otherwise run the CREATE again and fail; and an index
     * an operator made to the same end counts.
     */
    private static String indexUnlessOneLeadsWith(String table, String firstColumn, String index, String definition) {
        return "IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic JOIN sys.columns c ON c.object_id = ic.object_id"
                + " AND c.column_id = ic.column_id WHERE ic.object_id = OBJECT_ID(N'" + table + "')"
                + " AND ic.key_ordinal = 1 AND c.name = N'" + firstColumn + "')"
                + " CREATE NONCLUSTERED INDEX " + index + " ON " + table + " " + definition;
    }

    /** Adds a nullable column to a table made by an earlier release, where it is missing. */
    private static String addColumnIfMissing(String table, String column, String type) {
        return "IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'" + table + "')"
                + " AND name = N'" + column + "') ALTER TABLE " + table + " ADD " + column + " " + type + " NULL";
    }

    /** Fails (error 51001) when {@code table} has an enabled trigger, naming it and {@code why} it cannot. */
    private static String refuseTriggers(String table, String named, String why) {
        return "IF EXISTS (SELECT 1 FROM sys.triggers WHERE parent_id = OBJECT_ID(N'" + table + "') AND is_disabled = 0)"
                + " THROW 51001, N'" + named + " has an enabled trigger: the adapter''s " + why
                + "; disable or drop the trigger', 1";
    }

    /** Adds the database-clock default of {@code column} where the column has no default. */
    private String clockDefault(String q, String table, String column) {
        return "IF NOT EXISTS (SELECT 1 FROM sys.default_constraints d JOIN sys.columns c"
                + " ON c.object_id = d.parent_object_id AND c.column_id = d.parent_column_id"
                + " WHERE d.parent_object_id = OBJECT_ID(N'" + q + "') AND c.name = N'" + column + "')"
                + " ALTER TABLE " + q + " ADD CONSTRAINT " + quote(table + "_" + column + "_df")
                + " DEFAULT SYSUTCDATETIME() FOR " + column;
    }

    /**
     * A transaction-owned application lock. An EXEC opens no transaction, so without one the lock
     * call returns -999 and takes nothing (shown over TDS by Babelfish): the statement begins the
     * transaction where none is open, and a negative result fails. Under IMPLICIT_TRANSACTIONS,
     * which mssql-jdbc's {@code setAutoCommit(false)} sets, BEGIN TRANSACTION opens two levels
     * (the implicit one and its own), and the driver's commit would end only one, leaving the
     * lock and the DDL in an open transaction: the inner level is committed at once, so one
     * level is left for the caller's commit (seen over TDS on Babelfish, as SQL Server documents it).
     */
    @Override
    SqlTemplate createLock() {
        return new SqlTemplate("DECLARE @granted INT, @began INT = @@TRANCOUNT;"
                + " IF @began = 0 BEGIN TRANSACTION; IF @began = 0 AND @@TRANCOUNT > 1 COMMIT;"
                + " EXEC @granted = sp_getapplock @Resource = :resource, @LockMode = 'Exclusive',"
                + " @LockOwner = 'Transaction', @LockTimeout = 60000;"
                + " IF @granted < 0 THROW 51000, 'sp_getapplock refused the lock serializing table creation', 1;");
    }

    @Override
    String insert(String q) {
        return "INSERT INTO " + q + " " + insertColumns() + " OUTPUT inserted.id VALUES (:priority, "
                + nowPlus("delay") + ", SYSUTCDATETIME(), :headers, :body, :dedupKey, " + insertTail() + ")";
    }

    @Override
    String insertIfAbsent(String q) {
        // UPDLOCK + HOLDLOCK holds the key range, so two racing inserts of one key serialize here.
        return "INSERT INTO " + q + " " + insertColumns() + " OUTPUT inserted.id SELECT :priority, "
                + nowPlus("delay") + ", SYSUTCDATETIME(), :headers, :body, :dedupKey, " + insertTail()
                + " WHERE NOT EXISTS (SELECT 1 FROM " + q + " WITH (UPDLOCK, HOLDLOCK) WHERE dedup_key = :dedupKey)";
    }

    @Override
    String insertForBatch(String q) {
        return null; // mssql-jdbc returns no generated keys for batches: see insertBatch
    }

    /**
     * The rows a claim or lease takes: the first :n ready ones in the ready index's order,
     * skipping rows other transactions hold and keeping the rest (UPDLOCK) until the statement's
     * transaction ends. Named next_priority and next_id, so that the DML below names its own
     * columns without a prefix.
     */
    private String next(String q, String and) {
        return "WITH next (next_priority, next_id) AS (SELECT TOP (:n) priority, id FROM " + q + " AS m " + CLAIM_HINTS
                + " WHERE " + ready() + and + " ORDER BY " + DEQUEUE_ORDER + ") ";
    }

    /**
     * The rows of a claim or lease: those {@link #next} chose, matched on the whole clustered key,
     * so the target is found by a seek of the clustered index and its other non-clustered indexes
     * are maintained after it. The CTE locked the rows' ready-index entries first: a statement by id
     * ({@link #byId}) locks the clustered row first, so a claim and a statement by id on the same
     * ready row (a failure recorded just after a rollback, the late ack of a lease that has just
     * run out) can deadlock. The victim loses nothing: a claim rolls back uncounted, a statement in
     * auto-commit is tried again ({@link QueueTable}), and an ack that fails leaves the message to
     * its new holder, as a lease that ran out does anyway. {@code READPAST} on the target as well keeps it from waiting on other
     * consumers' rows whatever plan the optimiser picks. Only a real SQL Server shows the locking:
     * Babelfish ignores table hints.
     *
     * <p>The target repeats the CTE's {@code visible_at} condition (not {@code hidden}: a row is
     * hidden only with a {@code visible_at} ahead, and on Babelfish the repeated {@code hidden}
     * turned the plan to one that took the rows in another order and deadlocked with retries). On SQL Server it changes
     * nothing (the CTE's UPDLOCK keeps the row as it was read); an engine that waits for a held
     * row instead of skipping it and then re-reads it (Babelfish) would otherwise take a row that
     * another consumer leased meanwhile. A semi-join ({@code EXISTS}) rather than a join in
     * {@code FROM}: both are exact on SQL Server, but Babelfish re-checks a joined target's own
     * conditions only in this form (its {@code UPDATE … FROM} leased rows twice under concurrency,
     * and an aliased target scanned the whole table per row).
     *
     * <p>{@code OUTPUT} without {@code INTO}, because the rows go back to the caller: SQL Server
     * refuses it on a table with an enabled trigger (error 334), so the queue table may have none
     * ({@link #createStatements} says so at startup). {@code OUTPUT … INTO} a table variable would
     * lift that, but a prepared batch declaring one broke every later login to the database on
     * Babelfish ("role dbo does not exist"), so it could not be tested here.
     */
    private static final String CHOSEN = " WHERE EXISTS (SELECT 1 FROM next WHERE next_priority = priority"
            + " AND next_id = id) AND visible_at <= SYSUTCDATETIME()";

    /**
     * Ordered delivery ({@link #headOfKey}) reads the earlier rows of a key without hints, and not
     * with READPAST: a row that a consumer has deleted and not yet committed must still count,
     * and READPAST would skip it (so would NOLOCK, which reads the delete), letting the next
     * message of the key out while the first may still roll back. Under READ_COMMITTED_SNAPSHOT
     * that read sees the last committed version and waits for nothing; under locking READ
     * COMMITTED it waits until the transaction holding that earlier row ends (a delivery of the
     * same key in flight), then goes on. Only a real SQL Server shows the waiting; Babelfish
     * ignores table hints and reads versions, as PostgreSQL does.
     */
    @Override
    String claim(String q, String and) {
        return next(q, and) + "DELETE FROM " + q + " WITH (ROWLOCK, READPAST) OUTPUT " + messageColumns("deleted.") + CHOSEN;
    }

    @Override
    String lease(String q, String and) {
        return next(q, and) + "UPDATE " + q + " WITH (ROWLOCK, READPAST) SET visible_at = " + nowPlus("lease")
                + ", hidden = " + hiddenFor("lease") + ", attempts = " + nextAttempts("attempts") + ", lease_token = :token OUTPUT "
                + messageColumns("inserted.") + CHOSEN;
    }

    /**
     * The seeds' locking read: the first :n ready rows in the ready index's order, held (UPDLOCK)
     * until the transaction ends, skipping rows others hold. Fewer than 5,000 row locks
     * ({@link QueueTable#MAX_CLAIM}), so SQL Server does not escalate them to a table lock; only a
     * real SQL Server shows that, Babelfish ignores the hints.
     */
    @Override
    String hold(String q, String and) {
        return "SELECT TOP (:n) " + messageColumns("") + " FROM " + q + " AS m " + CLAIM_HINTS
                + " WHERE " + ready() + and + " ORDER BY " + DEQUEUE_ORDER;
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
     * no other transaction can hold one of them.
     */
    @Override
    int deleteHeld(Connection c, QueueSql sql, Long[] ids) throws SQLException {
        StringBuilder in = new StringBuilder("DELETE FROM ").append(sql.tableName()).append(" WHERE id IN (?");
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

    @Override
    String deadLetter(String q, String dlq, String attempts, String fence) {
        String attemptsOut = attempts.equals("attempts") ? "deleted.attempts" : attempts;
        return "DELETE FROM " + q + " OUTPUT deleted.id, deleted.priority, deleted.visible_at, deleted.enqueued_at, "
                + attemptsOut + ", deleted.dedup_key, deleted.headers, deleted.body, :error, SYSUTCDATETIME(),"
                + " deleted.ordering_key"
                + " INTO " + dlq + " (" + DEAD_LETTER_COLUMNS + ") WHERE " + byId(q) + " AND " + fence;
    }

    /**
     * The join form (T-SQL engines without updatable CTEs accept it, and it is as exact on SQL
     * Server): the chosen dead letters are deleted and {@code OUTPUT … INTO} the queue in one
     * statement (the queue table has no trigger, foreign key or CHECK constraint, which OUTPUT
     * INTO forbids). The dead-letter table has no unique key, so the join matches on
     * {@code (id, failed_at)}: two dead letters sharing both (only by hand) would move together.
     * The identity column is left out, so each moved message gets a new id.
     */
    @Override
    String requeueDeadLetters(String q, String dlq) {
        return "DELETE t OUTPUT deleted.priority, SYSUTCDATETIME(), deleted.enqueued_at, 0, deleted.dedup_key,"
                + " deleted.headers, deleted.body, deleted.last_error, deleted.ordering_key INTO " + q
                + " (" + REQUEUE_COLUMNS + ")"
                + " FROM " + dlq + " AS t WITH (ROWLOCK, READPAST) INNER JOIN (SELECT TOP (:n) d.id, d.failed_at FROM "
                + dlq + " AS d " + CLAIM_HINTS + " WHERE " + requeueable(q, dlq) + " ORDER BY d.failed_at, d.id) AS x"
                + " ON t.id = x.id AND t.failed_at = x.failed_at";
    }

    /** No order is needed to delete everything before the cutoff, so a plain {@code DELETE TOP} does it. */
    @Override
    String deleteBefore(String table, String column) {
        return "DELETE TOP (:n) FROM " + table + " WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK) WHERE " + column
                + " < :cutoff";
    }

    /**
     * Clustered on {@code completed_at}: rows are written at the end of the index, retention deletes
     * from its start, and the per-minute report reads one range.
     */
    @Override
    List<String> createJournalStatements(TableName journal) {
        String j = qualified(journal);
        return List.of("IF OBJECT_ID(N'" + j + "', N'U') IS NULL BEGIN"
                + " CREATE TABLE " + j + " (" + journalColumns("DATETIME2(7)", "NVARCHAR") + "); "
                + "CREATE CLUSTERED INDEX " + quote(journal.table() + "_at") + " ON " + j + " (completed_at); "
                + "END");
    }

    @Override
    List<String> createSubscriptionStatements(TableName table) {
        String t = qualified(table);
        return List.of("IF OBJECT_ID(N'" + t + "', N'U') IS NULL CREATE TABLE " + t + " ("
                + subscriptionColumns("DATETIME2(7)", "NVARCHAR") + ")");
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

    /**
     * {@code DELETE TOP} through the filtered index on {@code expires_at} (the redundant {@code IS
     * NOT NULL} lets the optimiser match it), skipping rows others hold. It locks the index entry
     * before the clustered row, the reverse of a claim's order, so a sweep and a claim of the same
     * row can deadlock: the victim loses nothing (a sweep is tried again at the next one; a claim
     * in a delivery rolls back uncounted). Only a real SQL Server shows the locking.
     */
    @Override
    String sweepExpired(String q, String dlq, boolean discard) {
        String where = " WHERE expires_at IS NOT NULL AND " + expiredAndFree();
        if (discard) {
            return "DELETE TOP (:n) FROM " + q + " WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK)" + where;
        }
        return "DELETE TOP (:n) FROM " + q + " WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK) OUTPUT deleted.id,"
                + " deleted.priority, deleted.visible_at, deleted.enqueued_at, deleted.attempts, deleted.dedup_key,"
                + " deleted.headers, deleted.body, :error, SYSUTCDATETIME(), deleted.ordering_key INTO " + dlq
                + " (" + DEAD_LETTER_COLUMNS + ")" + where;
    }

    @Override
    String peek(String q, String and) {
        return "SELECT TOP (1) 1 FROM " + q + " AS m WITH (READPAST, READCOMMITTEDLOCK) WHERE " + ready() + and;
    }

    /**
     * Through the filtered index of hidden rows, in no particular order: every due row is revealed
     * by the batches that follow. It locks that index's entry before the clustered row, the
     * reverse of a statement by id, so a reveal and the ack of a lease that has just run out can
     * deadlock; the victim loses nothing (a reveal is tried again at the next one, an ack that
     * fails leaves the message to be delivered again). Only a real SQL Server shows the locking.
     */
    @Override
    String reveal(String q) {
        return "UPDATE TOP (:n) " + q + " WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK) SET hidden = NULL WHERE "
                + hiddenAndDue();
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
     * READPAST is legal only under READ COMMITTED and REPEATABLE READ (error 650 otherwise, SNAPSHOT
     * included), so other levels are pinned to READ COMMITTED for the statement and restored after.
     * SET inside a transaction takes effect at once, with one exception: a transaction cannot go
     * (back) to SNAPSHOT once it has begun, so inside one the rest of a SNAPSHOT transaction stays
     * at READ COMMITTED (the claim still locks: READCOMMITTEDLOCK), and so does the session after
     * it, while the driver still reports SNAPSHOT. Peek and purge go through here too, so they
     * never run READPAST under SNAPSHOT; the purge, in transactions of its own, leaves the session
     * at READ COMMITTED the same way. Only a real SQL Server shows this; Babelfish refuses SNAPSHOT.
     */
    @Override
    <T> T withClaimIsolation(Connection c, SqlCall<T> call) throws SQLException {
        int level = c.getTransactionIsolation();
        if (level == Connection.TRANSACTION_READ_COMMITTED || level == Connection.TRANSACTION_REPEATABLE_READ) {
            return call.run();
        }
        boolean restore = level != SNAPSHOT || c.getAutoCommit();
        try (Statement s = c.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
            try {
                return call.run();
            } finally {
                if (restore) {
                    s.execute("SET TRANSACTION ISOLATION LEVEL " + isolationName(level));
                }
            }
        }
    }

    /** mssql-jdbc's constant for SNAPSHOT isolation. */
    private static final int SNAPSHOT = 0x1000;

    private static String isolationName(int level) {
        return switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ UNCOMMITTED";
            case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            case SNAPSHOT -> "SNAPSHOT";
            default -> "READ COMMITTED";
        };
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
            batch.append(i == 0 ? "" : " ").append("INSERT INTO ").append(sql.tableName())
                    .append(" (priority, visible_at, enqueued_at, headers, body, expires_at, ordering_key, hidden)")
                    .append(" OUTPUT inserted.id VALUES (:p").append(i).append(", ").append(nowPlus("d" + i))
                    .append(", SYSUTCDATETIME(), :h").append(i).append(", :b").append(i).append(", ")
                    .append(nowPlus("t" + i)).append(", :k").append(i).append(", ").append(hiddenFor("d" + i))
                    .append(");");
        }
        return batch.toString();
    }
}
