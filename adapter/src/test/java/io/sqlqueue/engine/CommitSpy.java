package io.sqlqueue.engine;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A connection that counts its commits and can fail one of them, so a test sees from outside where
 * an operation's transactions begin and end, and what a failure in the middle leaves behind.
 */
final class CommitSpy implements InvocationHandler {

    private final Connection target;
    private final int failingCommit;
    private int commits;

    private CommitSpy(Connection target, int failingCommit) {
        this.target = target;
        this.failingCommit = failingCommit;
    }

    /** Counts commits, fails none. */
    static CommitSpy on(Connection target) {
        return new CommitSpy(target, 0);
    }

    /** Counts commits; the {@code n}th throws instead of committing (its work stays pending). */
    static CommitSpy failingCommit(Connection target, int n) {
        return new CommitSpy(target, n);
    }

    Connection connection() {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                this);
    }

    /** Commits asked for so far, the failed one included. */
    int commits() {
        return commits;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getName().equals("commit") && ++commits == failingCommit) {
            throw new SQLException("simulated failure of commit " + commits);
        }
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
