package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * Runs a table's CREATE statements where the objects are missing, and commits: the one way the
 * engine creates its tables (queue, dead letters, journal). Safe when several servers start at
 * once: a database lock makes them take turns where the database has one, and a losing creator
 * tries again where it does not.
 */
final class SchemaCreation {

    private static final int TRIES = 6;

    private SchemaCreation() {
    }

    /**
     * Creates what is missing and commits; restores the connection's auto-commit mode. Call it on
     * a connection that is not part of another transaction.
     *
     * @param dialect  the database's, whose {@link Dialect#lockForCreation} makes creators take turns;
     *                 {@code null}: none
     * @param resource what the lock is named after, e.g. {@code sqlqueue:orders}
     * @param ddl      statements that are each safe to run when their object exists
     */
    static void createIfMissing(Connection c, Dialect dialect, String resource, List<String> ddl) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    createOnce(c, dialect, resource, ddl);
                    return;
                } catch (SQLException e) {
                    c.rollback();
                    if (attempt == TRIES) {
                        throw e;
                    }
                    // Another creator made an object between our check and our CREATE (H2 has no
                    // lock for this: seen when an application and its bean's activation create the
                    // same queue as it deploys). Let it finish; the next attempt finds the objects.
                    pause(Duration.ofMillis(25L * attempt));
                }
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static void pause(Duration d) throws SQLException {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while creating the queue's tables", e);
        }
    }

    private static void createOnce(Connection c, Dialect dialect, String resource, List<String> ddl)
            throws SQLException {
        if (dialect != null) {
            dialect.lockForCreation(c, resource);
        }
        try (Statement s = c.createStatement()) {
            for (String statement : ddl) {
                s.execute(statement);
            }
        }
        c.commit();
    }
}
