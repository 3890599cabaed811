package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Microsoft SQL Server: the single-statement dequeue of the seeds. A CTE picks the next rows with
 * {@code ROWLOCK, READPAST, UPDLOCK} (skip what other consumers hold, lock what we take, never
 * escalate), and a {@code DELETE}/{@code UPDATE … OUTPUT … FROM q JOIN next} takes them; that form
 * is exact on SQL Server and accepted by T-SQL engines without updatable CTEs.
 *
 * <p>{@code READPAST} is legal only under READ COMMITTED or REPEATABLE READ (error 650), so
 * claims pin READ COMMITTED when the connection runs at another level, and carry
 * {@code READCOMMITTEDLOCK} so that they still lock under READ_COMMITTED_SNAPSHOT.
 *
 * <p>The table is clustered on the dequeue order {@code (priority DESC, id)}: the claim is an
 * ordered range scan of the clustered index, and inserts append at the end of their priority.
 */
final class SqlServerDialect extends Dialect {

    private static final String CLAIM_HINTS = "WITH (ROWLOCK, READPAST, UPDLOCK, READCOMMITTEDLOCK)";

    /** Rows per multi-row insert: 5 parameters a row, under the 2,100-parameter limit. */
    private static final int ROWS_PER_INSERT = 400;

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
        return rs.getObject(column, LocalDateTime.class).toInstant(ZoneOffset.UTC);
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
                        + "visible_at DATETIME2(7) NOT NULL, "
                        + "enqueued_at DATETIME2(7) NOT NULL, "
                        + "attempts INT NOT NULL DEFAULT 0, "
                        + "dedup_key NVARCHAR(200) NULL, "
                        + "headers NVARCHAR(MAX) NULL, "
                        + "body VARBINARY(MAX) NOT NULL, "
                        + "last_error NVARCHAR(2000) NULL, "
                        + "lease_token BIGINT NULL, "
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
                        + "failed_at DATETIME2(7) NOT NULL); "
                        + "CREATE CLUSTERED INDEX " + quote(d + "_failed") + " ON " + dlq + " (failed_at, id); "
                        + "END",
                // On its own, so that dead-letter tables created before the requeue existed get it too.
                "IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE object_id = OBJECT_ID(N'" + dlq + "')"
                        + " AND name = N'" + d + "_dedup')"
                        + " CREATE NONCLUSTERED INDEX " + quote(d + "_dedup") + " ON " + dlq
                        + " (dedup_key, failed_at, id) WHERE dedup_key IS NOT NULL");
    }

    @Override
    SqlTemplate createLock() {
        return new SqlTemplate("EXEC sp_getapplock @Resource = :resource, @LockMode = 'Exclusive',"
                + " @LockOwner = 'Transaction', @LockTimeout = 60000");
    }

    @Override
    String insert(String q) {
        return "INSERT INTO " + q + " " + insertColumns() + " OUTPUT inserted.id VALUES (:priority, "
                + nowPlus("delay") + ", SYSUTCDATETIME(), :headers, :body, :dedupKey)";
    }

    @Override
    String insertIfAbsent(String q) {
        // UPDLOCK + HOLDLOCK holds the key range, so two racing inserts of one key serialize here.
        return "INSERT INTO " + q + " " + insertColumns() + " OUTPUT inserted.id SELECT :priority, "
                + nowPlus("delay") + ", SYSUTCDATETIME(), :headers, :body, :dedupKey"
                + " WHERE NOT EXISTS (SELECT 1 FROM " + q + " WITH (UPDLOCK, HOLDLOCK) WHERE dedup_key = :dedupKey)";
    }

    @Override
    String insertForBatch(String q) {
        return null; // mssql-jdbc returns no generated keys for batches: see insertBatch
    }

    private String next(String q) {
        return "WITH next AS (SELECT TOP (:n) id FROM " + q + " " + CLAIM_HINTS
                + " WHERE visible_at <= SYSUTCDATETIME() ORDER BY priority DESC, id) ";
    }

    @Override
    String claim(String q) {
        return next(q) + "DELETE q OUTPUT " + messageColumns("deleted.")
                + " FROM " + q + " AS q WITH (ROWLOCK) INNER JOIN next ON q.id = next.id";
    }

    @Override
    String lease(String q) {
        return next(q) + "UPDATE q SET visible_at = " + nowPlus("lease") + ", attempts = q.attempts + 1,"
                + " lease_token = :token OUTPUT " + messageColumns("inserted.")
                + " FROM " + q + " AS q WITH (ROWLOCK) INNER JOIN next ON q.id = next.id";
    }

    @Override
    String deadLetter(String q, String dlq, String attempts, String fence) {
        String attemptsOut = attempts.equals("attempts") ? "deleted.attempts" : attempts;
        return "DELETE FROM " + q + " OUTPUT deleted.id, deleted.priority, deleted.visible_at, deleted.enqueued_at, "
                + attemptsOut + ", deleted.dedup_key, deleted.headers, deleted.body, :error, SYSUTCDATETIME()"
                + " INTO " + dlq + " (" + DEAD_LETTER_COLUMNS + ") WHERE id = :id AND " + fence;
    }

    /**
     * The dead-letter table has no unique key, so the join form of the claim cannot name the chosen
     * rows: the DELETE goes through the CTE itself, which deletes exactly the TOP rows in the CTE's
     * ORDER BY, and {@code OUTPUT … INTO} writes them to the queue in the same statement (the queue
     * table has no trigger, foreign key or CHECK constraint, which OUTPUT INTO forbids). The
     * identity column is left out, so each moved message gets a new id.
     */
    @Override
    String requeueDeadLetters(String q, String dlq) {
        return "WITH batch AS (SELECT TOP (:n) * FROM " + dlq + " AS d " + CLAIM_HINTS
                + " WHERE " + requeueable(q, dlq) + " ORDER BY d.failed_at, d.id)"
                + " DELETE FROM batch OUTPUT deleted.priority, SYSUTCDATETIME(), deleted.enqueued_at, 0, deleted.dedup_key,"
                + " deleted.headers, deleted.body, deleted.last_error INTO " + q + " (" + REQUEUE_COLUMNS + ")";
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
    String peek(String q) {
        return "SELECT TOP (1) 1 FROM " + q + " WITH (READPAST, READCOMMITTEDLOCK) WHERE visible_at <= SYSUTCDATETIME()";
    }

    @Override
    String millisSince(String timestamp) {
        return "DATEDIFF_BIG(millisecond, " + timestamp + ", SYSUTCDATETIME())";
    }

    @Override
    String readUncommitted() {
        return " WITH (NOLOCK)";
    }

    @Override
    <T> T withClaimIsolation(Connection c, SqlCall<T> call) throws SQLException {
        int level = c.getTransactionIsolation();
        if (level == Connection.TRANSACTION_READ_COMMITTED || level == Connection.TRANSACTION_REPEATABLE_READ
                || level == SNAPSHOT) {
            return call.run(); // READPAST is legal here (with UPDLOCK under SNAPSHOT)
        }
        // SET inside a transaction is allowed and takes effect at once; restore it for the caller.
        try (Statement s = c.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
            try {
                return call.run();
            } finally {
                s.execute("SET TRANSACTION ISOLATION LEVEL " + isolationName(level));
            }
        }
    }

    /** mssql-jdbc's constant for SNAPSHOT isolation. */
    private static final int SNAPSHOT = 0x1000;

    private static String isolationName(int level) {
        return switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ UNCOMMITTED";
            case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            default -> "READ COMMITTED";
        };
    }

    /**
     * mssql-jdbc returns no generated keys from a batch, so rows go in as multi-row
     * {@code INSERT … SELECT … FROM (VALUES …) ORDER BY ord}: SQL Server assigns IDENTITY values
     * in the ORDER BY's order, so the sorted output ids are the messages' ids in order.
     */
    @Override
    long[] insertBatch(Connection c, QueueSql sql, List<OutgoingMessage> messages) throws SQLException {
        long[] ids = new long[messages.size()];
        for (int from = 0; from < messages.size(); from += ROWS_PER_INSERT) {
            List<OutgoingMessage> chunk = messages.subList(from, Math.min(from + ROWS_PER_INSERT, messages.size()));
            SqlTemplate insert = new SqlTemplate(multiRowInsert(sql, chunk.size()));
            try (SqlTemplate.Bound b = insert.prepare(c)) {
                for (int i = 0; i < chunk.size(); i++) {
                    OutgoingMessage m = chunk.get(i);
                    b.setInt("p" + i, m.priority())
                            .setMillis("d" + i, m.delay().toMillis())
                            .setString("h" + i, HeadersJson.write(m.headers()))
                            .setBytes("b" + i, m.body());
                }
                List<Long> chunkIds = new ArrayList<>(chunk.size());
                try (ResultSet rs = b.executeQuery()) {
                    while (rs.next()) {
                        chunkIds.add(rs.getLong(1));
                    }
                }
                if (chunkIds.size() != chunk.size()) {
                    throw new SQLException("inserted " + chunkIds.size() + " rows for " + chunk.size() + " messages");
                }
                chunkIds.sort(null);
                for (int i = 0; i < chunkIds.size(); i++) {
                    ids[from + i] = chunkIds.get(i);
                }
            }
        }
        return ids;
    }

    private String multiRowInsert(QueueSql sql, int rows) {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            values.append(i == 0 ? "" : ", ").append("(").append(i).append(", :p").append(i).append(", ")
                    .append(nowPlus("d" + i)).append(", :h").append(i).append(", :b").append(i).append(")");
        }
        return "INSERT INTO " + sql.tableName() + " (priority, visible_at, enqueued_at, headers, body) OUTPUT inserted.id"
                + " SELECT v.priority, v.visible_at, SYSUTCDATETIME(), v.headers, v.body FROM (VALUES " + values
                + ") AS v (ord, priority, visible_at, headers, body) ORDER BY v.ord";
    }
}
