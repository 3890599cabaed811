package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine's contract on SQL Server; each test is skipped, visibly, when it is not configured. */
class SqlServerQueueTest extends QueueContract {

    private static final TestDatabase DATABASE = TestDatabase.sqlServer();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    private String queryString(Connection c, String sql, String parameter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /**
     * The lock serializing table creation is owned by a transaction: taken outside one,
     * sp_getapplock returns -999 and takes nothing. The statement opens the transaction itself
     * where the driver has not (mssql-jdbc's manual commit only sets IMPLICIT_TRANSACTIONS).
     */
    @Test
    void theCreationLockIsReallyHeldUntilCommit() throws SQLException {
        String resource = "sqlqueue:" + queue.name();
        String held = "SELECT APPLOCK_MODE('public', ?, 'Transaction')";
        connection.setAutoCommit(false);
        queue.dialect().lockForCreation(connection, resource);
        assertEquals("Exclusive", queryString(connection, held, resource));
        try (Connection other = database().connect()) {
            assertEquals("0", queryString(other, "SELECT APPLOCK_TEST('public', ?, 'Exclusive', 'Session')", resource),
                    "another session cannot have it meanwhile");
        }
        connection.commit();
        assertEquals("NoLock", queryString(connection, held, resource), "released with the transaction, open: "
                + queryString(connection, "SELECT CAST(@@TRANCOUNT AS varchar(10)) WHERE ? IS NOT NULL", "x"));
        connection.setAutoCommit(true);
    }

    @Test
    void aQueueTableWithAnEnabledTriggerIsRefusedWithItsName() throws SQLException {
        refusedWithATriggerOn(queue.name(), "the queue table ");
    }

    @Test
    void aDeadLetterTableWithAnEnabledTriggerIsRefusedWithItsName() throws SQLException {
        refusedWithATriggerOn(queue.deadLetterName(), "the dead-letter table ");
    }

    private void refusedWithATriggerOn(TableName table, String named) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TRIGGER " + queue.dialect().quote(table.table() + "_audit") + " ON "
                    + queue.dialect().qualified(table) + " AFTER DELETE AS BEGIN SET NOCOUNT ON; END");
        }
        SQLException e = assertThrows(SQLException.class, () -> queue.createIfMissing(connection));
        assertTrue(e.getMessage().contains(named + table.table() + " has an enabled trigger"), e.getMessage());
        assertTrue(connection.getAutoCommit(), "auto-commit restored");
        SQLException checked = assertThrows(SQLException.class, () -> queue.checkExisting(connection),
                "refused as well where the adapter creates nothing (createQueue=false)");
        assertTrue(checked.getMessage().contains(named + table.table() + " has an enabled trigger"), checked.getMessage());
        assertTrue(checked.getMessage().contains("disable or drop the trigger"), checked.getMessage());
    }

    /**
     * A trigger enabled after the adapter checked the table: SQL Server refuses the OUTPUT of sends
     * and claims (error 334), and the adapter says which queue and what to do; nothing is written or taken.
     */
    @Test
    void aTriggerEnabledAfterStartupFailsSendsAndClaimsNamingTheQueue() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, Babelfish.RUNS_OUTPUT_ON_TABLES_WITH_TRIGGERS);
        queue.send(connection, OutgoingMessage.text("before").build());
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TRIGGER " + queue.dialect().quote(queue.name().table() + "_later") + " ON "
                    + queue.dialect().qualified(queue.name()) + " AFTER INSERT AS BEGIN SET NOCOUNT ON; END");
        }
        for (org.junit.jupiter.api.function.Executable statement : List.<org.junit.jupiter.api.function.Executable>of(
                () -> queue.send(connection, OutgoingMessage.text("after").build()),
                () -> queue.claim(connection, 1))) {
            SQLException e = assertThrows(SQLException.class, statement);
            assertTrue(e.getMessage().startsWith("queue " + queue.name() + ": a trigger was enabled"), e.getMessage());
        }
        assertEquals(new QueueStats(1, 0, 0, 0, Duration.ZERO, 0).ready(), queue.stats(connection).ready(),
                "the message before is still there, nothing else");
    }

    /**
     * Claims, leases, holds, peeks and reveals read with READPAST, legal only under READ COMMITTED or
     * REPEATABLE READ (error 650): each sets READ COMMITTED for itself, whatever the session's
     * level, which stays as it was. Here the session is at READ COMMITTED, as on Babelfish always.
     */
    @Test
    void statementsThatSkipLockedRowsLeaveTheSessionsLevelAsItWas() throws SQLException {
        readpastStatementsRunAt(2); // READ COMMITTED
    }

    /**
     * The same with the level set in T-SQL, as an application or a pooled connection can leave it,
     * which the driver's cached level does not show: before, every claim failed with error 650.
     */
    @Test
    void statementsThatSkipLockedRowsRunOnASessionLeftAtAnotherLevelInTsql() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, Babelfish.REFUSES_ISOLATION_CHANGE_IN_A_PREPARED_STATEMENT);
        try (Statement s = connection.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED");
        }
        readpastStatementsRunAt(1);
        try (Statement s = connection.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        }
        readpastStatementsRunAt(4);
        try (Statement s = connection.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        }
    }

    /** Runs each READPAST statement on {@link #connection} and checks the session's level ({@code sys.dm_exec_sessions}) after each. */
    private void readpastStatementsRunAt(int level) throws SQLException {
        queue.sendAll(connection, List.of(OutgoingMessage.text("claimed").build(), OutgoingMessage.text("leased").build(),
                OutgoingMessage.text("held").build()));
        assertEquals(level, sessionIsolation());
        assertTrue(queue.peek(connection));
        assertEquals(level, sessionIsolation(), "after the peek");
        assertEquals(1, queue.claim(connection, 1).size());
        assertEquals(level, sessionIsolation(), "after the claim");
        assertEquals(1, queue.lease(connection, 1, Duration.ofMinutes(1)).size());
        assertEquals(level, sessionIsolation(), "after the lease");
        queue.revealDue(connection);
        assertEquals(level, sessionIsolation(), "after the reveal");
        connection.setAutoCommit(false);
        List<HeldMessage> held = queue.hold(connection, 10, null);
        assertEquals(1, held.size());
        assertEquals(1, queue.deleteHeld(connection, held));
        connection.commit();
        connection.setAutoCommit(true);
        assertEquals(level, sessionIsolation(), "after the hold and its delete");
        assertEquals(0, queue.sweepExpired(connection));
        assertEquals(level, sessionIsolation(), "after the expiry sweep");
    }

    /**
     * The claim's join back to the table is pinned to nested loops: a seek of the clustered index
     * per chosen row at every claim size, never a scan join that would read (and lock) its way
     * through the table when statistics are stale. Read from SQL Server's estimated plans.
     */
    @Test
    void theClaimSeeksTheTableOncePerChosenRowAtEveryClaimSize() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, "Babelfish plans as PostgreSQL does and has no SHOWPLAN_XML; only a"
                + " real SQL Server shows the claim's plans");
        queue.sendAll(connection, java.util.Collections.nCopies(2000, OutgoingMessage.text("m").build()));
        SqlTemplate claim = new QueueSql(queue.dialect(), queue.name(), queue.deadLetterName(), false).claim;
        for (int n : new int[] {1, 100, 1000}) {
            String plan;
            try (Statement s = connection.createStatement()) {
                s.execute("SET SHOWPLAN_XML ON");
                try (ResultSet rs = s.executeQuery(claim.withLiteral("n", n).jdbcSql())) {
                    StringBuilder all = new StringBuilder();
                    while (rs.next()) {
                        all.append(rs.getString(1));
                    }
                    plan = all.toString();
                } finally {
                    s.execute("SET SHOWPLAN_XML OFF");
                }
            }
            assertTrue(plan.contains("PhysicalOp=\"Nested Loops\""), "nested loops at " + n + ": " + plan);
            assertFalse(plan.contains("PhysicalOp=\"Hash Match\"") || plan.contains("PhysicalOp=\"Merge Join\""),
                    "no scan join at " + n + ": " + plan);
            assertFalse(plan.contains("PhysicalOp=\"Clustered Index Scan\"") || plan.contains("PhysicalOp=\"Table Scan\""),
                    "the table is sought, never scanned, at " + n + ": " + plan);
        }
        assertEquals(2000, queue.stats(connection).ready(), "showplan ran nothing");
    }

    private int sessionIsolation() throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT transaction_isolation_level FROM sys.dm_exec_sessions WHERE session_id = @@SPID")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * An ack that loses its lock wait (SET LOCK_TIMEOUT) fails and changes nothing: the message
     * stays leased, and once the row is free the same ack succeeds.
     */
    @Test
    void anAckThatLosesItsLockWaitFailsAndChangesNothing() throws SQLException {
        ackWhileTheRowIsHeld(e -> { });
    }

    /**
     * On SQL Server the lost lock wait is error 1222: the statement is tried
     * {@link QueueTable#LOCK_CONFLICT_TRIES} times in auto-commit, then fails as a lock conflict.
     */
    @Test
    void anAckThatKeepsLosingItsLockWaitFailsAsALockConflict() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, Babelfish.OTHER_LOCK_TIMEOUT_ERROR);
        ackWhileTheRowIsHeld(e -> assertTrue(queue.dialect().isLockConflict(e),
                "a lock conflict: " + e.getErrorCode() + " " + e.getMessage()));
    }

    private void ackWhileTheRowIsHeld(java.util.function.Consumer<SQLException> check) throws SQLException {
        long id = queue.send(connection, OutgoingMessage.text("held").build());
        LeasedMessage leased = queue.lease(connection, 1, Duration.ofMinutes(5)).get(0);
        String q = queue.dialect().qualified(queue.name());
        try (Connection holder = database().connect()) {
            holder.setAutoCommit(false);
            try (PreparedStatement ps = holder.prepareStatement("UPDATE " + q + " SET last_error = 'held' WHERE id = ?")) {
                ps.setLong(1, id);
                assertEquals(1, ps.executeUpdate());
            }
            try (Statement s = connection.createStatement()) {
                s.execute("SET LOCK_TIMEOUT 200");
            }
            check.accept(assertThrows(SQLException.class, () -> queue.ack(connection, leased)));
            holder.rollback();
        }
        try (Statement s = connection.createStatement()) {
            s.execute("SET LOCK_TIMEOUT -1");
        }
        assertEquals(new QueueStats(0, 0, 1, 0, Duration.ZERO, 0), queue.stats(connection), "still leased, untouched");
        assertTrue(queue.ack(connection, leased));
        assertEquals(new QueueStats(0, 0, 0, 0, Duration.ZERO, 0), queue.stats(connection));
    }
}
