package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * Whether a connection on which a call failed can be used again: the one rule of the adapter's
 * own connections, inbound and outbound, after HikariCP's. A failure whose SQLSTATE says the
 * connection itself is gone ends it: class 08 (connection exception), 57P01 to 57P03 (PostgreSQL
 * shut down, crashed or starting), 01002 (disconnect error), JZ0C0 and JZ0C1 (the connection
 * closed, Sybase's drivers). Any other failure (a duplicate key, a deadlock victim, a lock
 * time-out, a statement the database refused) leaves it usable if it still answers
 * {@link Connection#isValid}: asked then, once, not at every loan. Thread-safe.
 */
public final class ConnectionHealth {

    private static final Set<String> FATAL_STATES = Set.of("57P01", "57P02", "57P03", "01002", "JZ0C0", "JZ0C1");
    private static final int VALIDATION_SECONDS = 2;

    private ConnectionHealth() {
    }

    /** Whether {@code failure}, or one it wraps or chains, says the connection is gone. */
    public static boolean isFatal(SQLException failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException e) {
                for (SQLException next = e; next != null; next = next.getNextException()) {
                    String state = next.getSQLState();
                    if (state != null && (state.startsWith("08") || FATAL_STATES.contains(state))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code c} can be used again after {@code failure} (null: none): not when the failure
     * was fatal, nor when the connection no longer answers. Call it outside any transaction.
     */
    public static boolean usableAfter(Connection c, SQLException failure) {
        return failure == null || (!isFatal(failure) && answers(c));
    }

    /** Whether the connection answers within a few seconds. */
    public static boolean answers(Connection c) {
        try {
            return c.isValid(VALIDATION_SECONDS);
        } catch (SQLException e) {
            return false;
        }
    }
}
