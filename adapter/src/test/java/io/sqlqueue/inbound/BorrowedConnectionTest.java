package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.engine.ConnectionHealth;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which failures end a lent connection: those whose SQLSTATE says the connection is gone, or after
 * which it no longer answers; not a duplicate key or a deadlock, which used to close it and every
 * idle connection with it.
 */
class BorrowedConnectionTest {

    private final List<String> closed = new ArrayList<>();

    /** A stand-in physical connection whose statements fail with {@code failure}, answering isValid with {@code answers}. */
    private Connection physical(String name, SQLException failure, boolean answers) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "createStatement" -> throw failure;
                    case "getAutoCommit", "isClosed" -> method.getName().equals("getAutoCommit");
                    case "isValid" -> answers;
                    case "close" -> closed.add(name);
                    case "toString" -> name;
                    default -> null;
                });
    }

    private List<Connection> lentAfter(SQLException failure, boolean answers) throws SQLException {
        Connection a = physical("a", failure, answers);
        IdleConnections<Connection> pool = new IdleConnections<>(2, () -> a, ConnectionHealth::answers,
                c -> closed.add(c.toString()));
        Connection handle = BorrowedConnection.lend(pool);
        assertThrows(SQLException.class, handle::createStatement);
        handle.close();
        return pool.idleCount() == 1 ? List.of(a) : List.of();
    }

    @Test
    void aDuplicateKeyOrADeadlockLeavesTheConnectionToBeLentAgain() throws SQLException {
        assertEquals(1, lentAfter(new SQLIntegrityConstraintViolationException("duplicate key", "23505"), true).size());
        assertEquals(1, lentAfter(new SQLException("chosen as deadlock victim", "40001", 1205), true).size());
        assertEquals(List.of(), closed);
    }

    @Test
    void aFailureThatSaysTheConnectionIsGoneClosesItWithoutAsking() throws SQLException {
        for (String state : List.of("08006", "08S01", "57P01", "57P02", "57P03", "01002")) {
            closed.clear();
            assertEquals(List.of(), lentAfter(new SQLException("gone", state), true), state);
            assertEquals(List.of("a"), closed, state);
        }
        SQLException wrapped = new SQLException("the statement failed", "HY000");
        wrapped.setNextException(new SQLException("I/O error", "08006"));
        assertTrue(ConnectionHealth.isFatal(wrapped), "a fatal state in the chain counts");
        assertFalse(ConnectionHealth.isFatal(new SQLException("lock wait timed out", "HYT00")));
    }

    @Test
    void aStatementOrResultSetThatSaysTheConnectionIsGoneClosesItToo() throws SQLException {
        SQLException gone = new SQLException("An I/O error occurred while sending to the backend", "08006");
        ResultSet rows = (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "next" -> throw gone;
                    default -> null;
                });
        PreparedStatement statement = (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "executeQuery" -> rows;
                    default -> null;
                });
        Connection a = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "prepareStatement" -> statement;
                    case "getAutoCommit" -> true;
                    case "isClosed" -> false;
                    case "isValid" -> true; // it would answer: the state alone must end it
                    case "close" -> closed.add("a");
                    default -> null;
                });
        IdleConnections<Connection> pool = new IdleConnections<>(2, () -> a, ConnectionHealth::answers,
                c -> closed.add("a"));
        Connection handle = BorrowedConnection.lend(pool);
        PreparedStatement lent = handle.prepareStatement("SELECT 1");
        assertSame(handle, lent.getConnection(), "a statement names the handle, never the physical connection");
        ResultSet rs = lent.executeQuery();
        assertThrows(SQLException.class, rs::next);
        handle.close();
        assertEquals(0, pool.idleCount(), "a connection whose result set failed with 08006 is not lent again");
        assertEquals(List.of("a"), closed);
    }

    @Test
    void anyOtherFailureAfterWhichTheConnectionNoLongerAnswersClosesIt() throws SQLException {
        assertEquals(List.of(), lentAfter(new SQLException("something odd", "HY000"), false));
        assertEquals(List.of("a"), closed);
    }
}
