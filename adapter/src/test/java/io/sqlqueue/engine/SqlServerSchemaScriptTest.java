package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code admin/sqlserver-schema.sql}, the DBA's script, run as sqlcmd would run it with the README's
 * {@code -v Schema=… Queue=… AppRole=…}: the tables it
 * makes are the ones the adapter makes itself (compared in the catalog, so the two cannot drift),
 * it can run twice, and the adapter works on them. Skipped, visibly, without SQLQUEUE_MSSQL_URL.
 */
class SqlServerSchemaScriptTest {

    private static final TestDatabase DATABASE = TestDatabase.sqlServer();
    private static final Path SCRIPT = Path.of("..", "admin", "sqlserver-schema.sql");
    private static final Path EXACT_KEYS_SCRIPT = Path.of("..", "admin", "sqlserver-exact-keys.sql");
    private static final List<String> SET_OPTIONS = List.of("QUOTED_IDENTIFIER ON", "ANSI_NULLS ON", "ANSI_PADDING ON",
            "ANSI_WARNINGS ON", "ARITHABORT ON", "CONCAT_NULL_YIELDS_NULL ON", "NUMERIC_ROUNDABORT OFF");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\((\\w+)\\)");

    private final String suffix = Long.toHexString(System.nanoTime());
    private final String scripted = "s_" + suffix;
    private final String own = "a_" + suffix;
    private final String role = "r_" + suffix;
    private final String login = "l_" + suffix;
    /** Schemas of their own for the subscriptions table (one per schema): the script's and the adapter's. */
    private final String scriptedSchema = "ss_" + suffix;
    private final String ownSchema = "as_" + suffix;
    private boolean subscribed;
    private Connection connection;

    @BeforeEach
    void connect() throws SQLException {
        assumeTrue(DATABASE.available(), DATABASE.missingReason());
        connection = DATABASE.connect();
    }

    @AfterEach
    void dropEverything() throws SQLException {
        if (connection == null) {
            return;
        }
        try (Statement s = connection.createStatement()) {
            for (String queue : new String[] {scripted, own}) {
                for (String table : new String[] {queue, queue + "_dlq", queue + "_journal"}) {
                    s.execute("IF OBJECT_ID(N'dbo." + table + "', N'U') IS NOT NULL DROP TABLE dbo." + table);
                }
            }
            for (String schema : new String[] {scriptedSchema, ownSchema}) {
                for (String table : new String[] {scripted, scripted + "_dlq", scripted + "_journal",
                        Topic.SUBSCRIPTIONS, AuditTrail.TABLE}) {
                    String t = schema + "." + table;
                    s.execute("IF OBJECT_ID(N'" + t + "', N'U') IS NOT NULL DROP TABLE " + t);
                }
                s.execute("IF SCHEMA_ID(N'" + schema + "') IS NOT NULL DROP SCHEMA " + schema);
            }
            s.execute("IF OBJECT_ID(N'dbo." + AuditTrail.TABLE + "', N'U') IS NOT NULL DELETE FROM dbo."
                    + AuditTrail.TABLE + " WHERE queue_name IN ('" + scripted + "', '" + own + "')");
            if (subscribed) {
                s.execute("DELETE FROM dbo." + Topic.SUBSCRIPTIONS + " WHERE topic = 's' AND name = '" + suffix + "'");
            }
            s.execute("IF DATABASE_PRINCIPAL_ID(N'" + login + "') IS NOT NULL DROP USER " + login);
            s.execute("IF SUSER_ID(N'" + login + "') IS NOT NULL DROP LOGIN " + login);
            // the subscriptions table of dbo stays (other tests share it): its grants go first
            s.execute("IF DATABASE_PRINCIPAL_ID(N'" + role + "') IS NOT NULL AND OBJECT_ID(N'dbo." + Topic.SUBSCRIPTIONS
                    + "', N'U') IS NOT NULL REVOKE SELECT, INSERT, UPDATE, DELETE ON dbo." + Topic.SUBSCRIPTIONS
                    + " FROM " + role);
            s.execute("IF DATABASE_PRINCIPAL_ID(N'" + role + "') IS NOT NULL AND OBJECT_ID(N'dbo." + AuditTrail.TABLE
                    + "', N'U') IS NOT NULL REVOKE SELECT, INSERT ON dbo." + AuditTrail.TABLE + " FROM " + role);
            s.execute("IF DATABASE_PRINCIPAL_ID(N'" + role + "') IS NOT NULL DROP ROLE " + role);
        } finally {
            connection.close();
        }
    }

    /** The script's batches as sqlcmd sends them: {@code -v} variables replaced, split at GO. */
    private List<String> batches(Map<String, String> variables) throws IOException {
        return batches(SCRIPT, variables);
    }

    private static List<String> batches(Path script, Map<String, String> variables) throws IOException {
        String text = Files.readString(script);
        assertFalse(Pattern.compile("(?mi)^\\s*:setvar").matcher(text).find(),
                "a :setvar in the script would override the DBA's -v values");
        Matcher m = VARIABLE.matcher(text);
        StringBuilder replaced = new StringBuilder();
        while (m.find()) {
            String value = variables.get(m.group(1));
            assertTrue(value != null, "the script uses $(" + m.group(1) + "), which the README's command does not set");
            m.appendReplacement(replaced, Matcher.quoteReplacement(value));
        }
        m.appendTail(replaced);
        List<String> batches = new ArrayList<>();
        for (String batch : replaced.toString().split("(?m)^GO\\s*$")) {
            if (!batch.replaceAll("(?m)--.*$", "").isBlank()) {
                batches.add(batch);
            }
        }
        return batches;
    }

    /**
     * Runs the script as the test's user. Babelfish refuses {@code GRANT VIEW DEFINITION} ("not
     * currently supported"), so there the batch of those grants is left out; the rest runs as on
     * SQL Server, where the test runs every batch.
     */
    private void runScript() throws IOException, SQLException {
        runScript("dbo");
    }

    private void runScript(String schema) throws IOException, SQLException {
        boolean babelfish = Babelfish.isBabelfish(connection);
        for (String batch : batches(Map.of("Schema", schema, "Queue", scripted, "AppRole", role))) {
            if (babelfish && batch.contains("GRANT VIEW DEFINITION")) {
                continue;
            }
            try (Statement s = connection.createStatement()) {
                s.execute(batch);
            }
        }
    }

    /** A table of dbo's columns, indexes, defaults and checks, without the names the table's name is part of. */
    private List<String> catalog(String table) throws SQLException {
        return catalogOf("dbo." + table);
    }

    /** {@link #catalog} of a table in any schema: {@code schema.table}. */
    private List<String> catalogOf(String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        rows.addAll(rows("SELECT c.name, t.name, c.max_length, c.precision, c.scale, c.is_nullable, c.is_identity,"
                + " c.collation_name, c.is_computed"
                + " FROM sys.columns c JOIN sys.types t ON t.user_type_id = c.user_type_id"
                + " WHERE c.object_id = OBJECT_ID(?) ORDER BY c.column_id", table));
        rows.addAll(rows("SELECT i.type_desc, i.is_unique, i.is_primary_key, i.has_filter, ic.key_ordinal, c.name,"
                + " ic.is_descending_key, ic.is_included_column FROM sys.indexes i JOIN sys.index_columns ic ON ic.object_id = i.object_id"
                + " AND ic.index_id = i.index_id JOIN sys.columns c ON c.object_id = ic.object_id"
                + " AND c.column_id = ic.column_id WHERE i.object_id = OBJECT_ID(?)"
                + " ORDER BY i.type_desc, i.is_unique, i.is_primary_key, i.has_filter, ic.key_ordinal, c.name", table));
        rows.addAll(rows("SELECT c.name, d.definition FROM sys.default_constraints d JOIN sys.columns c"
                + " ON c.object_id = d.parent_object_id AND c.column_id = d.parent_column_id"
                + " WHERE d.parent_object_id = OBJECT_ID(?) ORDER BY c.name", table));
        rows.addAll(rows("SELECT definition FROM sys.check_constraints WHERE parent_object_id = OBJECT_ID(?)"
                + " ORDER BY definition", table));
        rows.addAll(rows("SELECT lock_escalation_desc FROM sys.tables WHERE object_id = OBJECT_ID(?)", table));
        return rows;
    }

    private List<String> rows(String sql, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.append(i == 1 ? "" : " | ").append(rs.getString(i));
                    }
                    rows.add(row.toString());
                }
            }
        }
        return rows;
    }

    @Test
    void theScriptMakesTheTablesTheAdapterMakesAndCanRunTwice() throws Exception {
        runScript();
        runScript();
        QueueTable adapters = QueueTable.open(connection, own);
        adapters.createIfMissing(connection);
        new CompletionJournal(adapters).createIfMissing(connection);

        for (String table : new String[] {"", "_dlq", "_journal"}) {
            List<String> expected = catalog(own + table);
            assertFalse(expected.isEmpty(), "the adapter's " + own + table + " is in the catalog");
            assertEquals(expected, catalog(scripted + table), "the script's " + scripted + table);
        }
    }

    /** A journal the script made before trace propagation gains trace_id when it runs again: the adapter's journal. */
    @Test
    void theScriptBringsAJournalOfTheReleaseBeforeTracingToTheAdaptersShape() throws Exception {
        runScript();
        try (Statement s = connection.createStatement()) {
            s.execute("ALTER TABLE dbo." + scripted + "_journal DROP COLUMN trace_id");
        }
        runScript();
        QueueTable adapters = QueueTable.open(connection, own);
        adapters.createIfMissing(connection);
        new CompletionJournal(adapters).createIfMissing(connection);
        assertEquals(catalog(own + "_journal"), catalog(scripted + "_journal"));
    }

    /**
     * sqlcmd runs with QUOTED_IDENTIFIER OFF unless started with -I, and SQL Server then refuses to
     * create filtered indexes and indexes on computed columns, and to write rows into their tables
     * (Msg 1934). The scripts set what they need in a first batch of their own (QUOTED_IDENTIFIER
     * takes effect when a batch is parsed), and a session that writes rows by hand sets
     * QUOTED_IDENTIFIER ON, as the README says. Babelfish does not enforce SET options: there the
     * scripts' text and their run from such a session show; the refused insert only a real SQL Server.
     */
    @Test
    void theScriptsAndAByHandInsertWorkFromASessionWithSqlcmdsSetOptions() throws Exception {
        for (Path script : List.of(SCRIPT, EXACT_KEYS_SCRIPT)) {
            String first = batches(script, Map.of("Schema", "dbo", "Queue", scripted, "AppRole", role)).get(0)
                    .replaceAll("(?m)--.*$", "");
            for (String option : SET_OPTIONS) {
                assertTrue(first.contains("SET " + option + ";"), script + " sets " + option + " first");
            }
            assertFalse(first.contains("CREATE") || first.contains("ALTER"), script + ": its SET options in a batch of"
                    + " their own, before anything they govern");
        }
        try (Statement s = connection.createStatement()) {
            s.execute("SET QUOTED_IDENTIFIER OFF"); // sqlcmd's default; ANSI_NULLS and ANSI_PADDING are ON there
            s.execute("SET ANSI_NULLS ON");
            s.execute("SET ANSI_PADDING ON");
        }
        runScript();

        try (Connection byHand = DATABASE.connect(); Statement s = byHand.createStatement()) {
            s.execute("SET QUOTED_IDENTIFIER OFF");
            if (!Babelfish.isBabelfish(byHand)) {
                SQLException refused = assertThrows(SQLException.class,
                        () -> s.executeUpdate("INSERT INTO dbo." + scripted + " (body) VALUES (0x01)"));
                assertEquals(1934, refused.getErrorCode(), refused.getMessage());
            }
            s.execute("SET QUOTED_IDENTIFIER ON");
            assertEquals(1, s.executeUpdate("INSERT INTO dbo." + scripted + " (body, dedup_key) VALUES (0x01, N'by hand')"));
        }
        QueueTable queue = QueueTable.open(connection, scripted);
        List<QueueMessage> claimed = queue.claim(connection, 10);
        assertEquals(1, claimed.size(), "the row written by hand is delivered");
        assertEquals(1, claimed.get(0).body()[0]);
    }

    /**
     * A queue of the release before exact keys (key columns of the database's collation, the unique
     * index on dedup_key alone, the ready index without ordering_key), with messages in it: the
     * adapter warns and refuses a key that collides only by collation, and after
     * admin/sqlserver-exact-keys.sql the tables are the adapter's own, every message still there and
     * the keys exact. Babelfish refuses COLLATE in ALTER COLUMN, so only a real SQL Server runs it.
     */
    @Test
    void theExactKeysScriptBringsAQueueOfTheReleaseBeforeToTheAdaptersTables() throws Exception {
        assumeFalse(Babelfish.isBabelfish(connection), "Babelfish does not support COLLATE in ALTER TABLE ALTER COLUMN"
                + " (\"not currently supported\"), which the script needs; only a real SQL Server can run it");
        String q = "dbo." + scripted;
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE " + q + " (id BIGINT IDENTITY(1,1) NOT NULL, priority SMALLINT NOT NULL DEFAULT 0,"
                    + " visible_at DATETIME2(7) NOT NULL CONSTRAINT [" + scripted + "_visible_at_df] DEFAULT SYSUTCDATETIME(),"
                    + " enqueued_at DATETIME2(7) NOT NULL CONSTRAINT [" + scripted + "_enqueued_at_df] DEFAULT SYSUTCDATETIME(),"
                    + " attempts INT NOT NULL DEFAULT 0, dedup_key NVARCHAR(200) COLLATE SQL_Latin1_General_CP1_CI_AS NULL,"
                    + " headers NVARCHAR(MAX) NULL, body VARBINARY(MAX) NOT NULL, last_error NVARCHAR(2000) NULL,"
                    + " lease_token BIGINT NULL, expires_at DATETIME2(7) NULL,"
                    + " ordering_key NVARCHAR(200) COLLATE SQL_Latin1_General_CP1_CI_AS NULL, hidden SMALLINT NULL,"
                    + " CONSTRAINT [" + scripted + "_pk] PRIMARY KEY NONCLUSTERED (id))");
            s.execute("CREATE UNIQUE CLUSTERED INDEX [" + scripted + "_dequeue] ON " + q + " (priority DESC, id)");
            s.execute("CREATE UNIQUE NONCLUSTERED INDEX [" + scripted + "_dedup] ON " + q + " (dedup_key)"
                    + " WHERE dedup_key IS NOT NULL");
            s.execute("CREATE NONCLUSTERED INDEX [" + scripted + "_ready] ON " + q + " (hidden, priority DESC, id)"
                    + " INCLUDE (visible_at) WHERE hidden IS NULL");
            s.execute("SELECT COUNT(*) FROM " + q + " WHERE dedup_key = N'x' AND ordering_key = N'y'"); // statistics
        }
        QueueTable queue = QueueTable.open(connection, scripted);
        queue.createIfMissing(connection); // the dead-letter table, the other indexes; the keys stay as they are
        queue.send(connection, OutgoingMessage.text("first").dedupKey("k-1").orderingKey("o-1").build());
        SQLException refused = assertThrows(SQLException.class,
                () -> queue.send(connection, OutgoingMessage.text("other").dedupKey("K-1").build()));
        assertTrue(refused.getMessage().contains("admin/sqlserver-exact-keys.sql"), refused.getMessage());
        assertEquals(1, rowCount(q), "the refused send wrote nothing");

        for (String batch : batches(EXACT_KEYS_SCRIPT, Map.of("Schema", "dbo", "Queue", scripted))) {
            try (Statement s = connection.createStatement()) {
                s.execute(batch);
            }
        }
        QueueTable adapters = QueueTable.open(connection, own);
        adapters.createIfMissing(connection);
        for (String table : new String[] {"", "_dlq"}) {
            assertEquals(catalog(own + table), catalog(scripted + table), "after the script, " + scripted + table);
        }
        long other = queue.send(connection, OutgoingMessage.text("other").dedupKey("K-1").build());
        assertEquals(2, rowCount(q));
        assertEquals(List.of("first", "other"), queue.claim(connection, 10).stream().map(QueueMessage::text).toList());
        assertTrue(other > 0);
    }

    private long rowCount(String table) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void theScriptMakesTheSubscriptionsTableTheAdapterMakes() throws Exception {
        assertTheScriptMakesTheSchemasTable(Topic.SUBSCRIPTIONS, () -> { },
                () -> new Topic(Dialect.of(connection), ownSchema + ".prices").createIfMissing(connection));
    }

    @Test
    void theScriptMakesTheAuditTableTheAdapterMakes() throws Exception {
        assertTheScriptMakesTheSchemasTable(AuditTrail.TABLE, () -> { },
                () -> new AuditTrail(QueueTable.open(connection, ownSchema + ".q")).createIfMissing(connection));
    }

    /**
     * An audit table the script made before the JMX operations were audited and edits kept their
     * original gains criterion, original_headers and original_body when it runs again: the adapter's table.
     */
    @Test
    void theScriptBringsAnAuditTableOfTheReleaseBeforeOriginalsToTheAdaptersShape() throws Exception {
        assertTheScriptMakesTheSchemasTable(AuditTrail.TABLE, () -> {
            try (Statement s = connection.createStatement()) {
                for (String column : new String[] {"criterion", "original_headers", "original_body"}) {
                    s.execute("ALTER TABLE " + scriptedSchema + "." + AuditTrail.TABLE + " DROP COLUMN " + column);
                }
            }
        }, () -> new AuditTrail(QueueTable.open(connection, ownSchema + ".q")).createIfMissing(connection));
    }

    /**
     * A table of which a schema has one: the script run twice in one schema ({@code betweenRuns}
     * between the two), the adapter's {@code make} in another.
     */
    private void assertTheScriptMakesTheSchemasTable(String table, SqlAction betweenRuns, SqlAction make)
            throws Exception {
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE SCHEMA " + scriptedSchema);
            s.execute("CREATE SCHEMA " + ownSchema);
        }
        runScript(scriptedSchema);
        betweenRuns.run();
        runScript(scriptedSchema);
        make.run();
        List<String> expected = catalogOf(ownSchema + "." + table);
        assertFalse(expected.isEmpty(), "the adapter's " + table + " is in the catalog");
        assertEquals(expected, catalogOf(scriptedSchema + "." + table));
    }

    @FunctionalInterface
    private interface SqlAction {
        void run() throws SQLException;
    }

    @Test
    void theAdapterWorksOnTheScriptsTablesAndAddsNothing() throws Exception {
        runScript();
        List<String> before = catalog(scripted);
        QueueTable queue = QueueTable.open(connection, scripted);
        queue.createIfMissing(connection);
        new CompletionJournal(queue).createIfMissing(connection);
        assertEquals(before, catalog(scripted), "nothing added or changed");

        long id = queue.send(connection, OutgoingMessage.text("from the DBA's table").build());
        List<QueueMessage> claimed = queue.claim(connection, 10);
        assertEquals(1, claimed.size());
        assertEquals(id, claimed.get(0).id());
        assertEquals("from the DBA's table", claimed.get(0).text());
    }

    /**
     * A login whose user is only a member of the script's role runs the adapter's statements on
     * the four tables (start-up, send, lease and ack, claim, failure and dead letter, requeue,
     * purge, journal, subscribe and publish) and cannot create a table. Babelfish enforces the grants; that the catalog
     * checks see the tables through VIEW DEFINITION only a real SQL Server shows.
     */
    @Test
    void aMemberOfTheRoleRunsTheAdapterWithoutCreatingAnything() throws Exception {
        runScript();
        String password = "Pw-" + suffix + "-aA1";
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE LOGIN " + login + " WITH PASSWORD = '" + password + "'");
        } catch (SQLException e) {
            assumeTrue(false, "the test's user may not create a login for the role's member: " + e.getMessage());
        }
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE USER " + login + " FOR LOGIN " + login);
            s.execute("ALTER ROLE " + role + " ADD MEMBER " + login);
        }
        try (Connection member = DriverDataSources.plain(TestDatabase.settings("SQLQUEUE_MSSQL")[0], login, password)
                .getConnection()) {
            SQLException refused = assertThrows(SQLException.class, () -> {
                try (Statement s = member.createStatement()) {
                    s.execute("CREATE TABLE dbo.x_" + suffix + " (id INT)");
                }
            });
            assertTrue(refused.getMessage().toLowerCase(java.util.Locale.ROOT).contains("permission"),
                    refused.getMessage());

            QueueTable queue = new QueueTable(Dialect.of(member), scripted, null,
                    new RetryPolicy(1, java.time.Duration.ZERO, java.time.Duration.ZERO));
            queue.createIfMissing(member);
            CompletionJournal journal = new CompletionJournal(queue);
            journal.createIfMissing(member);

            queue.sendAll(member, List.of(OutgoingMessage.text("leased").build(),
                    OutgoingMessage.text("claimed").dedupKey("k-" + suffix).build(),
                    OutgoingMessage.text("fails").build()));
            LeasedMessage leased = queue.lease(member, 1, java.time.Duration.ofMinutes(1)).get(0);
            assertTrue(queue.ack(member, leased));

            member.setAutoCommit(false);
            QueueMessage claimed = queue.claim(member, 1).get(0);
            java.time.Instant twoDaysAgo = java.time.Instant.now().minus(java.time.Duration.ofDays(2));
            journal.record(member, JournalEntry.of(claimed, JournalEntry.Outcome.COMPLETED, twoDaysAgo, twoDaysAgo,
                    "member"));
            member.commit();
            QueueMessage failing = queue.claim(member, 1).get(0);
            member.rollback();
            assertEquals(FailureOutcome.DEAD_LETTERED, queue.recordFailure(member, failing, "fails for the test"));
            member.commit();
            member.setAutoCommit(true);

            assertEquals(1, queue.deadLetters().requeue(member, 10, "member"));
            assertEquals(List.of("fails"), queue.claim(member, 10).stream().map(QueueMessage::text).toList());
            assertEquals(0, queue.deadLetters().purgeFailedBefore(member, java.time.Instant.now().plusSeconds(3600),
                    "member"), "requeued: none left to purge");
            List<AuditEntry> audited = queue.deadLetters().auditTrail().recent(member, queue.name().toString(), 10);
            assertEquals(1, audited.size(), "the requeue's audit row in the script's table; none for a purge of nothing");
            assertEquals(List.of("member", AuditTrail.REQUEUE, 1, AuditTrail.OLDEST_FIRST), List.of(audited.get(0).actor(),
                    audited.get(0).operation(), audited.get(0).count(), audited.get(0).criterion()));
            assertEquals(1, journal.deleteOlderThan(member, java.time.Duration.ofDays(1)));
            assertEquals(new QueueStats(0, 0, 0, 0, java.time.Duration.ZERO, 0), queue.stats(member));

            // A topic whose subscription's queue is the script's: topic s, subscription <suffix>.
            Topic topic = new Topic(Dialect.of(member), "s");
            topic.createIfMissing(member); // finds the script's table
            subscribed = true;
            topic.subscribe(member, suffix, null);
            assertEquals(List.of(queue.name()), topic.publish(member, OutgoingMessage.text("published").build()));
            assertEquals(List.of("published"), queue.claim(member, 10).stream().map(QueueMessage::text).toList());
            assertTrue(topic.unsubscribe(member, suffix));
        }
    }
}
