package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The SQL Server rules of DESIGN §4, checked on the statements themselves: SQL Server cannot run
 * on the build machines, and these rules decide correctness there. The same contract tests as on
 * the other databases run when SQLQUEUE_MSSQL_URL points at a server.
 */
class SqlServerDialectTest {

    private final QueueSql sql = new SqlServerDialect().queueSql(TableName.parse("dbo.orders"),
            TableName.parse("dbo.orders_dlq"));

    @Test
    void dialectIsChosenFromTheProductName() {
        assertInstanceOf(SqlServerDialect.class, Dialect.forProductName("Microsoft SQL Server"));
        assertInstanceOf(PostgresDialect.class, Dialect.forProductName("PostgreSQL"));
        assertInstanceOf(H2Dialect.class, Dialect.forProductName("H2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Dialect.forProductName("MySQL"))
                .getMessage().contains("MySQL"));
    }

    @Test
    void theClaimIsOneStatementSkippingLockedRowsInTheJoinShape() {
        String claim = sql.claim().jdbcSql();
        assertTrue(claim.startsWith("WITH next AS (SELECT TOP (?) id FROM [dbo].[orders]"
                + " WITH (ROWLOCK, READPAST, UPDLOCK, READCOMMITTEDLOCK) WHERE visible_at <= SYSUTCDATETIME()"
                + " ORDER BY priority DESC, id) "), claim);
        assertTrue(claim.contains("DELETE q OUTPUT deleted.id, deleted.priority, deleted.headers, deleted.body,"
                + " deleted.enqueued_at, deleted.attempts FROM [dbo].[orders] AS q WITH (ROWLOCK)"
                + " INNER JOIN next ON q.id = next.id"), claim);
    }

    @Test
    void theLeaseUpdatesInTheSameShapeWithTheTokenAndAttempts() {
        String lease = sql.lease().jdbcSql();
        assertTrue(lease.startsWith("WITH next AS (SELECT TOP (?) id FROM [dbo].[orders] WITH (ROWLOCK, READPAST, UPDLOCK,"),
                lease);
        assertTrue(lease.contains("UPDATE q SET visible_at = DATEADD(millisecond, ?, DATEADD(second, ?, SYSUTCDATETIME())),"
                + " attempts = q.attempts + 1, lease_token = ? OUTPUT inserted.id"), lease);
        assertTrue(lease.endsWith("FROM [dbo].[orders] AS q WITH (ROWLOCK) INNER JOIN next ON q.id = next.id"), lease);
    }

    @Test
    void deadLetteringIsOneDeleteOutputInto() {
        String move = sql.deadLetterLeased().jdbcSql();
        assertTrue(move.startsWith("DELETE FROM [dbo].[orders] OUTPUT deleted.id"), move);
        assertTrue(move.contains("INTO [dbo].[orders_dlq] (id, priority, visible_at, enqueued_at, attempts, dedup_key,"
                + " headers, body, last_error, failed_at) WHERE id = ? AND lease_token = ?"), move);
        assertTrue(sql.deadLetterClaimed().jdbcSql().contains("CAST(? AS INTEGER)"));
    }

    @Test
    void enqueueReturnsTheIdThroughOutputAndDedupHoldsTheKeyRange() {
        assertTrue(sql.insert().jdbcSql().contains("OUTPUT inserted.id VALUES"));
        assertTrue(sql.insertIfAbsent().jdbcSql().contains("WHERE NOT EXISTS (SELECT 1 FROM [dbo].[orders]"
                + " WITH (UPDLOCK, HOLDLOCK) WHERE dedup_key = ?)"));
    }

    @Test
    void peekSkipsLockedRowsAndStatsDoNotBlock() {
        assertEquals("SELECT TOP (1) 1 FROM [dbo].[orders] WITH (READPAST, READCOMMITTEDLOCK)"
                + " WHERE visible_at <= SYSUTCDATETIME()", sql.peek().jdbcSql());
        assertTrue(sql.stats().jdbcSql().endsWith("FROM [dbo].[orders] WITH (NOLOCK)"));
    }

    @Test
    void tablesAreCreatedOnlyWhenMissingUnderAnApplicationLock() {
        assertTrue(sql.create().get(0).startsWith("IF OBJECT_ID(N'[dbo].[orders]', N'U') IS NULL BEGIN CREATE TABLE"));
        assertTrue(sql.create().get(0).contains("CREATE UNIQUE CLUSTERED INDEX [orders_dequeue] ON [dbo].[orders]"
                + " (priority DESC, id)"));
        assertTrue(sql.create().get(0).contains("WHERE dedup_key IS NOT NULL"));
        assertTrue(sql.createLock().jdbcSql().startsWith("EXEC sp_getapplock @Resource = ?"));
    }
}
