package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SQL Server rules of DESIGN §4, checked on the statements themselves: SQL Server cannot run
 * on the build machines, and these rules decide correctness there. The same contract tests as on
 * the other databases run when SQLQUEUE_MSSQL_URL points at a server.
 */
class SqlServerDialectTest {

    private final SqlServerDialect dialect = new SqlServerDialect();
    private final TableName orders = TableName.parse("dbo.orders");
    private final QueueSql sql = new QueueSql(new SqlServerDialect(), TableName.parse("dbo.orders"),
            TableName.parse("dbo.orders_dlq"), false);
    private final CompletionJournal journal = new CompletionJournal(
            new QueueTable(new SqlServerDialect(), "dbo.orders", null, RetryPolicy.DEFAULT));

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
        String claim = sql.claim.jdbcSql();
        assertTrue(claim.startsWith("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; WITH next (next_priority, next_id) AS"
                + " (SELECT TOP (?) priority, id FROM [dbo].[orders]"
                + " AS m WITH (ROWLOCK, READPAST, UPDLOCK, READCOMMITTEDLOCK) WHERE hidden IS NULL AND visible_at <="
                + " SYSUTCDATETIME() ORDER BY hidden, priority DESC, id) "), claim);
        assertTrue(claim.endsWith("DELETE FROM [dbo].[orders] WITH (ROWLOCK, READPAST) OUTPUT deleted.id, deleted.priority,"
                + " deleted.headers, deleted.body, deleted.enqueued_at, deleted.attempts, deleted.visible_at, deleted.dedup_key,"
                + " deleted.ordering_key, deleted.leased_by, deleted.expires_at, SYSUTCDATETIME() WHERE EXISTS (SELECT 1 FROM next WHERE next_priority = priority AND next_id = id)"
                + " AND visible_at <= SYSUTCDATETIME() OPTION (LOOP JOIN)"), "matched on the whole clustered key, a"
                + " seek per row whatever the statistics: " + claim);
    }

    @Test
    void theLeaseUpdatesInTheSameShapeWithTheTokenAndAttempts() {
        String lease = sql.lease.jdbcSql();
        assertTrue(lease.startsWith("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; WITH next (next_priority, next_id) AS"
                + " (SELECT TOP (?) priority, id FROM [dbo].[orders]"
                + " AS m WITH (ROWLOCK, READPAST, UPDLOCK,"), lease);
        assertTrue(lease.contains("UPDATE [dbo].[orders] WITH (ROWLOCK, READPAST) SET visible_at = DATEADD(millisecond, ?, DATEADD(second, ?,"
                + " SYSUTCDATETIME())), hidden = CASE WHEN ? >= 1000 THEN 1 END, attempts = CASE WHEN attempts < 0 THEN 1"
                + " WHEN attempts >= 2147483647 THEN attempts ELSE attempts + 1 END, lease_token = ?, leased_by = CASE WHEN"
                + " attempts >= ? THEN leased_by WHEN leased_by IS NULL THEN ? ELSE LEFT(CONCAT(CAST(? AS VARCHAR(1000)),"
                + " ', ', leased_by), 1000) END OUTPUT inserted.id"),
                lease);
        assertTrue(lease.endsWith(" WHERE EXISTS (SELECT 1 FROM next WHERE next_priority = priority AND next_id = id)"
                + " AND visible_at <= SYSUTCDATETIME() OPTION (LOOP JOIN)"), lease);
    }

    @Test
    void statementsByIdFindTheRowThroughTheClusteredKey() {
        String byId = "priority = (SELECT p.priority FROM [dbo].[orders] AS p WHERE p.id = ?) AND id = ?";
        assertEquals("DELETE FROM [dbo].[orders] WHERE " + byId + " AND lease_token = ?", sql.ack.jdbcSql());
        assertTrue(sql.retryLeased.jdbcSql().endsWith(" WHERE " + byId + " AND lease_token = ?"), sql.retryLeased.jdbcSql());
        assertTrue(sql.retryClaimed.jdbcSql().endsWith(" WHERE " + byId + " AND attempts < ?"), sql.retryClaimed.jdbcSql());
        assertTrue(sql.releaseLeased.jdbcSql().endsWith(" WHERE " + byId + " AND lease_token = ?"),
                sql.releaseLeased.jdbcSql());
    }

    @Test
    void deadLetteringIsOneDeleteOutputInto() {
        String move = sql.deadLetterLeased.jdbcSql();
        assertTrue(move.startsWith("DELETE FROM [dbo].[orders] OUTPUT deleted.id"), move);
        assertTrue(move.endsWith("INTO [dbo].[orders_dlq] (id, priority, visible_at, enqueued_at, attempts, dedup_key,"
                + " headers, body, last_error, failed_at, ordering_key, error_class) WHERE priority = (SELECT p.priority FROM [dbo].[orders] AS p"
                + " WHERE p.id = ?) AND id = ? AND lease_token = ?"), move);
        assertTrue(sql.deadLetterClaimed.jdbcSql().contains("CAST(? AS INTEGER)"));
    }

    @Test
    void enqueueReturnsTheIdThroughOutputAndDedupHoldsTheKeyRange() {
        assertTrue(sql.insert.jdbcSql().contains("OUTPUT inserted.id VALUES"));
        assertTrue(sql.insertIfAbsent.jdbcSql().endsWith("WHERE NOT EXISTS (SELECT 1 FROM [dbo].[orders]"
                + " WITH (UPDLOCK, HOLDLOCK) WHERE dedup_key IS NOT NULL AND dedup_key = CAST(? AS NVARCHAR(200))"
                + " AND dedup_key COLLATE Latin1_General_100_BIN2 = CAST(? AS NVARCHAR(200))"
                + " AND DATALENGTH(dedup_key) = DATALENGTH(CAST(? AS NVARCHAR(200))))"),
                "the filtered index's own predicate, so that HOLDLOCK holds a range of it; the key exactly: "
                + sql.insertIfAbsent.jdbcSql());
        assertEquals("SELECT id FROM [dbo].[orders] WHERE dedup_key IS NOT NULL AND dedup_key = CAST(? AS NVARCHAR(200))"
                + " AND dedup_key COLLATE Latin1_General_100_BIN2 = CAST(? AS NVARCHAR(200))"
                + " AND DATALENGTH(dedup_key) = DATALENGTH(CAST(? AS NVARCHAR(200)))", sql.idByDedupKey.jdbcSql());
    }

    @Test
    void peekSkipsLockedRowsAndStatsDoNotBlock() {
        assertEquals("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; SELECT TOP (1) 1 FROM [dbo].[orders] AS m"
                + " WITH (READPAST, READCOMMITTEDLOCK)"
                + " WHERE hidden IS NULL AND visible_at <= SYSUTCDATETIME()", sql.peek.jdbcSql());
        assertTrue(sql.stats.jdbcSql().endsWith("FROM [dbo].[orders] WITH (NOLOCK)"));
    }

    @Test
    void tablesAreCreatedWithExactKeysAndRowLocksOnly() {
        List<String> ddl = dialect.createTable(TableDefinition.QUEUE, orders);
        String create = ddl.get(0);
        assertTrue(create.startsWith("CREATE TABLE [dbo].[orders] (id BIGINT IDENTITY(1,1) NOT NULL, "), create);
        assertTrue(create.contains("dedup_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL, "), create);
        assertTrue(create.contains("ordering_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL, "), create);
        assertTrue(create.endsWith("dedup_key_length AS DATALENGTH(dedup_key), CONSTRAINT [orders_pk] PRIMARY KEY"
                + " NONCLUSTERED (id))"), create);
        assertEquals("CREATE UNIQUE CLUSTERED INDEX [orders_dequeue] ON [dbo].[orders] (priority DESC, id)", ddl.get(1));
        assertEquals("CREATE UNIQUE NONCLUSTERED INDEX [orders_dedup] ON [dbo].[orders] (dedup_key, dedup_key_length)"
                + " WHERE dedup_key IS NOT NULL", ddl.get(2), "keys differing in trailing spaces are two keys");
        assertEquals("ALTER TABLE [dbo].[orders] SET (LOCK_ESCALATION = DISABLE)", ddl.get(ddl.size() - 1));
        String deadLetters = dialect.createTable(TableDefinition.DEAD_LETTERS, TableName.parse("dbo.orders_dlq")).get(0);
        assertTrue(deadLetters.contains("dedup_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL, "), deadLetters);
    }

    @Test
    void requeueIsOneDeleteOfTheOldestDeadLettersJoinedToTheirKeysOutputIntoTheQueue() {
        String requeue = new SqlTemplate(dialect.requeueStatement("[dbo].[orders]", "[dbo].[orders_dlq]")).withLiteral("n", 100).jdbcSql();
        assertTrue(requeue.startsWith("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; DELETE t OUTPUT deleted.priority, SYSUTCDATETIME(), deleted.enqueued_at, 0,"
                + " deleted.dedup_key, deleted.headers, deleted.body, deleted.last_error, deleted.ordering_key INTO"
                + " [dbo].[orders] (priority, visible_at, enqueued_at, attempts, dedup_key, headers, body, last_error,"
                + " ordering_key) FROM [dbo].[orders_dlq] AS t"
                + " WITH (ROWLOCK, READPAST) INNER JOIN (SELECT TOP (100) d.id, d.failed_at FROM [dbo].[orders_dlq] AS d"
                + " WITH (ROWLOCK, READPAST, UPDLOCK, READCOMMITTEDLOCK) WHERE NOT EXISTS (SELECT 1 FROM [dbo].[orders] AS q"
                + " WHERE q.dedup_key IS NOT NULL AND q.dedup_key = d.dedup_key AND q.dedup_key COLLATE"
                + " Latin1_General_100_BIN2 = d.dedup_key AND DATALENGTH(q.dedup_key) = DATALENGTH(d.dedup_key))"), requeue);
        assertTrue(requeue.endsWith(" ORDER BY d.failed_at, d.id) AS x ON t.id = x.id AND t.failed_at = x.failed_at"
                + " OPTION (LOOP JOIN)"),
                "the oldest failures, each deleted by its key: " + requeue);
        assertFalse(requeue.contains("INTO [dbo].[orders] (id"), "the identity column takes its next value: " + requeue);
    }

    @Test
    void purgeAndRetentionDeleteSmallBatchesSkippingLockedRows() {
        assertEquals("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; DELETE TOP (500) FROM [dbo].[orders_dlq] WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK)"
                + " WHERE failed_at < ?", sql.purgeDeadLetters.withLiteral("n", 500).jdbcSql());
        JournalSql journalSql = new SqlServerDialect().journalSql(journal.name());
        assertEquals("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; DELETE TOP (500) FROM [dbo].[orders_journal] WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK)"
                + " WHERE completed_at < ?", journalSql.deleteBefore().withLiteral("n", 500).jdbcSql());
    }

    @Test
    void deadLetterTablesAreClusteredOnTheirFailureTimeWithAFilteredIndexOfTheirKeys() {
        List<String> ddl = dialect.createTable(TableDefinition.DEAD_LETTERS, TableName.parse("dbo.orders_dlq"));
        assertFalse(ddl.get(0).contains("PRIMARY KEY"), ddl.get(0));
        assertEquals(List.of("CREATE CLUSTERED INDEX [orders_dlq_failed] ON [dbo].[orders_dlq] (failed_at, id)",
                "CREATE NONCLUSTERED INDEX [orders_dlq_dedup] ON [dbo].[orders_dlq] (dedup_key, failed_at, id)"
                        + " WHERE dedup_key IS NOT NULL"), ddl.subList(1, ddl.size()));
    }

    @Test
    void theClockColumnsDefaultToTheDatabaseClockThroughNamedConstraints() {
        String create = dialect.createTable(TableDefinition.QUEUE, orders).get(0);
        assertTrue(create.contains("visible_at DATETIME2(7) CONSTRAINT [orders_visible_at_df] DEFAULT SYSUTCDATETIME()"
                + " NOT NULL, enqueued_at DATETIME2(7) CONSTRAINT [orders_enqueued_at_df] DEFAULT SYSUTCDATETIME() NOT NULL"),
                create);
        assertEquals("ALTER TABLE [dbo].[orders] ADD CONSTRAINT [orders_visible_at_df] DEFAULT SYSUTCDATETIME() FOR visible_at",
                dialect.addDefault(orders, column(TableDefinition.QUEUE, "visible_at")));
    }

    @Test
    void columnsAddedSinceTheFirstReleaseAreAddedNullable() {
        assertEquals("ALTER TABLE [dbo].[orders] ADD expires_at DATETIME2(7) NULL",
                dialect.addColumn(orders, column(TableDefinition.QUEUE, "expires_at")));
        assertEquals("ALTER TABLE [dbo].[orders] ADD ordering_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL",
                dialect.addColumn(orders, column(TableDefinition.QUEUE, "ordering_key")));
        assertEquals("ALTER TABLE [dbo].[orders] ADD hidden SMALLINT NULL",
                dialect.addColumn(orders, column(TableDefinition.QUEUE, "hidden")));
    }

    @Test
    void theOrderingAndExpiryIndexesHoldOnlyTheRowsWithAKeyOrAnExpiry() {
        List<String> ddl = dialect.createTable(TableDefinition.QUEUE, orders);
        assertTrue(ddl.contains("CREATE NONCLUSTERED INDEX [orders_ordering] ON [dbo].[orders] (ordering_key, id)"
                + " WHERE ordering_key IS NOT NULL"), ddl.toString());
        assertTrue(ddl.contains("CREATE NONCLUSTERED INDEX [orders_expiry] ON [dbo].[orders] (expires_at)"
                + " WHERE expires_at IS NOT NULL"), ddl.toString());
    }

    @Test
    void claimsReadAFilteredIndexOfTheRowsThatAreNotHiddenAndRevealsOneOfTheHiddenRows() {
        List<String> ddl = dialect.createTable(TableDefinition.QUEUE, orders);
        assertTrue(ddl.get(0).contains("hidden SMALLINT NULL, "), ddl.get(0));
        assertTrue(ddl.contains("CREATE NONCLUSTERED INDEX [orders_ready] ON [dbo].[orders] (hidden, priority DESC, id)"
                + " INCLUDE (visible_at, ordering_key) WHERE hidden IS NULL"), ddl.toString());
        assertTrue(ddl.contains("CREATE NONCLUSTERED INDEX [orders_hidden] ON [dbo].[orders] (visible_at)"
                + " WHERE hidden IS NOT NULL"), ddl.toString());
        assertEquals("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; UPDATE TOP (1000) [dbo].[orders] WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK) SET hidden = NULL"
                + " WHERE hidden IS NOT NULL AND visible_at <= SYSUTCDATETIME()",
                sql.reveal.withLiteral("n", 1000).jdbcSql());
        assertTrue(sql.insert.jdbcSql().contains(", ?, CASE WHEN ? >= 1000 THEN 1 END)"), sql.insert.jdbcSql());
        assertTrue(sql.retryLeased.jdbcSql().contains(", hidden = CASE WHEN ? >= 1000 THEN 1 END, lease_token = NULL"),
                sql.retryLeased.jdbcSql());
        assertTrue(sql.releaseLeased.jdbcSql().contains(", hidden = NULL, lease_token = NULL"),
                sql.releaseLeased.jdbcSql());
    }

    @Test
    void theExpirySweepDeletesTopThroughTheFilteredIndexSkippingHeldAndLeasedRows() {
        String sweep = sql.sweepExpired.withLiteral("n", 500).jdbcSql();
        assertTrue(sweep.startsWith("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; DELETE TOP (500) FROM [dbo].[orders] WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK)"
                + " OUTPUT deleted.id,"), sweep);
        assertTrue(sweep.endsWith("INTO [dbo].[orders_dlq] (id, priority, visible_at, enqueued_at, attempts, dedup_key,"
                + " headers, body, last_error, failed_at, ordering_key, error_class) WHERE expires_at IS NOT NULL AND expires_at <="
                + " SYSUTCDATETIME() AND (lease_token IS NULL OR visible_at <= SYSUTCDATETIME())"), sweep);
        assertEquals("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; DELETE TOP (500) FROM [dbo].[orders]"
                + " WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK) WHERE expires_at"
                + " IS NOT NULL AND expires_at <= SYSUTCDATETIME() AND (lease_token IS NULL OR visible_at <="
                + " SYSUTCDATETIME())", sql.discardExpired.withLiteral("n", 500).jdbcSql());
    }

    @Test
    void anOrderedClaimTakesOnlyTheFirstRowOfEachKeyWithoutSkippingRowsOthersHold() {
        QueueSql ordered = new QueueSql(new SqlServerDialect(), TableName.parse("dbo.orders"),
                TableName.parse("dbo.orders_dlq"), true);
        String claim = ordered.claim.withLiteral("n", 10).jdbcSql();
        assertTrue(claim.startsWith("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; WITH next (next_priority, next_id) AS"
                + " (SELECT TOP (10) priority, id FROM [dbo].[orders]"
                + " AS m WITH (ROWLOCK, READPAST, UPDLOCK, READCOMMITTEDLOCK) WHERE hidden IS NULL AND visible_at <="
                + " SYSUTCDATETIME() AND (m.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM [dbo].[orders] AS earlier"
                + " WHERE earlier.ordering_key IS NOT NULL AND earlier.ordering_key = m.ordering_key"
                + " AND earlier.ordering_key COLLATE Latin1_General_100_BIN2 = m.ordering_key"
                + " AND DATALENGTH(earlier.ordering_key) = DATALENGTH(m.ordering_key)"
                + " AND earlier.id < m.id)) ORDER BY hidden, priority DESC, id) DELETE FROM"), claim);
        assertFalse(sql.claim.jdbcSql().contains("ordering_key = m.ordering_key"), "unordered claims do not look");
        assertTrue(ordered.lease.jdbcSql().contains("AND earlier.id < m.id)) ORDER BY hidden, priority DESC, id) UPDATE"));
        assertTrue(ordered.hold.jdbcSql().contains("AND earlier.id < m.id)) ORDER BY hidden, priority DESC, id"));
    }

    @Test
    void aTriggerEnabledAfterStartupFailsStatementsNamingTheQueueAndTheFix() {
        SqlServerDialect dialect = new SqlServerDialect();
        TableName queue = TableName.parse("dbo.orders");
        for (int code : new int[] {334, 331}) {
            SQLException refused = new SQLException("The target table 'dbo.orders' of the DML statement cannot have any"
                    + " enabled triggers if the statement contains an OUTPUT clause without INTO clause.", "S0001", code);
            SQLException e = dialect.explained(refused, queue);
            assertTrue(e.getMessage().startsWith("queue dbo.orders: a trigger was enabled on its queue or dead-letter"
                    + " table"), e.getMessage());
            assertTrue(e.getMessage().contains("disable or drop the trigger"), e.getMessage());
            assertEquals(code, e.getErrorCode(), "callers still classify by the code");
            assertEquals(refused, e.getCause());
        }
        SQLException other = new SQLException("deadlock", "40001", 1205);
        assertEquals(other, dialect.explained(other, queue));
    }

    @Test
    void theJournalIsClusteredOnCompletionTime() {
        List<String> ddl = dialect.createTable(TableDefinition.JOURNAL, journal.name());
        assertTrue(ddl.get(0).startsWith("CREATE TABLE [dbo].[orders_journal] ("), ddl.get(0));
        assertTrue(ddl.get(0).contains("completed_at DATETIME2(7) NOT NULL"), ddl.get(0));
        assertTrue(ddl.get(0).contains("outcome VARCHAR(13) NOT NULL CHECK (outcome IN ('completed', 'dead_lettered'))"),
                ddl.get(0));
        assertTrue(ddl.get(0).contains("consumer NVARCHAR(200) NULL"), ddl.get(0));
        assertEquals("CREATE CLUSTERED INDEX [orders_journal_at] ON [dbo].[orders_journal] (completed_at)", ddl.get(1));
    }

    private static TableDefinition.Column column(TableDefinition table, String name) {
        return table.columns().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void thePerMinuteReportUsesPercentileContAsAWindowFunction() {
        String report = journal.perMinuteTimingsSql(Duration.ofHours(1));
        assertTrue(report.startsWith("SELECT DISTINCT minute_start, COUNT(*) OVER (PARTITION BY minute_start)"), report);
        assertTrue(report.contains("PERCENTILE_CONT(0.95) WITHIN GROUP (ORDER BY queue_ms) OVER (PARTITION BY minute_start)"
                + " AS p95_queue_ms"), report);
        assertTrue(report.contains("CAST(DATEDIFF_BIG(millisecond, enqueued_at, claimed_at) AS FLOAT) AS queue_ms"), report);
        assertTrue(report.contains("WHERE completed_at >= DATEADD(minute, -60, SYSUTCDATETIME())) AS t ORDER BY minute_start"),
                report);
        assertFalse(report.contains("GROUP BY"), "PERCENTILE_CONT is no aggregate in T-SQL: " + report);
        assertTrue(journal.unfinishedDeliveriesSql().contains("FROM [dbo].[orders] WITH (NOLOCK) WHERE attempts > 0"));
    }

    @Test
    void timestampsAreBoundAsUtcLocalTimesForDatetime2() {
        assertEquals(LocalDateTime.of(2024, 5, 6, 7, 8, 9),
                new SqlServerDialect().timestampParameter(Instant.parse("2024-05-06T07:08:09Z")));
    }
}
