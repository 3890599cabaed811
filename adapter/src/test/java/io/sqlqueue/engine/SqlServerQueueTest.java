package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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
        SqlTemplate lock = queue.dialect().queueSql(queue.name(), queue.deadLetterName(), false).createLock();
        String held = "SELECT APPLOCK_MODE('public', ?, 'Transaction')";
        connection.setAutoCommit(false);
        try (SqlTemplate.Bound b = lock.prepare(connection)) {
            b.setString("resource", resource);
            b.statement().execute();
        }
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
