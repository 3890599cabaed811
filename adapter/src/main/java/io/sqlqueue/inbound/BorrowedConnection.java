package io.sqlqueue.inbound;

import io.sqlqueue.engine.ConnectionHealth;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

/**
 * A handle on a physical connection of {@link IdleConnections} that notes the last
 * {@link SQLException} a call on it threw, or on a statement or result set it made (a connection
 * reset shows there first), so that the connection is lent again only if that left it usable
 * ({@link ConnectionHealth}). A handle made by {@link #lend} gives the connection back
 * when it is closed (rolled back, in auto-commit, as it was lent); one made by {@link #watching}
 * leaves that to its owner. One thread uses a handle at a time.
 */
final class BorrowedConnection implements InvocationHandler {

    private final Connection physical;
    private final IdleConnections<Connection> pool;
    private final Connection handle;
    private volatile SQLException failure;
    private boolean returned;

    private BorrowedConnection(Connection physical, IdleConnections<Connection> pool) {
        this.physical = physical;
        this.pool = pool;
        this.handle = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, this);
    }

    /** A connection of {@code pool}; closing it gives it back. */
    static Connection lend(IdleConnections<Connection> pool) throws SQLException {
        return new BorrowedConnection(pool.borrow(), pool).handle;
    }

    /** A handle on {@code physical} that only notes failures; closing it does nothing. */
    static BorrowedConnection watching(Connection physical) {
        return new BorrowedConnection(physical, null);
    }

    Connection handle() {
        return handle;
    }

    /**
     * Whether the connection can be lent again: no call threw, or what was thrown left it usable.
     * Call it once the connection is outside any transaction (it may ask the database).
     */
    boolean usable() {
        return ConnectionHealth.usableAfter(physical, failure);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "close" -> {
                if (pool != null && !returned) {
                    returned = true;
                    pool.giveBack(physical, resetForNextBorrower() && usable());
                }
                return null;
            }
            case "isClosed" -> {
                return returned || physical.isClosed();
            }
            case "equals" -> {
                return proxy == args[0];
            }
            case "hashCode" -> {
                return System.identityHashCode(proxy);
            }
            case "toString" -> {
                return "borrowed " + physical;
            }
            default -> {
                if (returned) {
                    throw new SQLException("this connection was closed (given back to the adapter's idle connections)",
                            "08003");
                }
                return watched(physical, method, args);
            }
        }
    }

    /** Calls {@code method} on {@code target}, noting an SQLException; a statement or result set it returns is watched too. */
    private Object watched(Object target, Method method, Object[] args) throws Throwable {
        Object result;
        try {
            result = method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof SQLException failed) {
                failure = failed;
            }
            throw e.getCause();
        }
        Class<?> type = method.getReturnType();
        if (result == null || !WATCHED.contains(type)) {
            return result;
        }
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, m, a) -> switch (m.getName()) {
            case "equals" -> proxy == a[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "getConnection" -> handle; // never the physical connection behind the handle's back
            default -> watched(result, m, a);
        });
    }

    /** What a connection's calls return that can fail on their own: HikariCP wraps the same. */
    private static final Set<Class<?>> WATCHED = Set.of(Statement.class, PreparedStatement.class, CallableStatement.class,
            ResultSet.class);

    /** Ends what the borrower left open; false when that fails (the connection is closed then). */
    private boolean resetForNextBorrower() {
        try {
            if (!physical.getAutoCommit()) {
                physical.rollback();
                physical.setAutoCommit(true);
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
