package io.sqlqueue.inbound;

import io.sqlqueue.DatabaseLogin;
import io.sqlqueue.engine.ConnectionHealth;
import io.sqlqueue.engine.DriverDataSources;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import javax.sql.XAConnection;
import javax.sql.XADataSource;

/**
 * The pool of the adapter's own connections to one database and login ({@code jdbcUrl} mode; a
 * server's JDBC resource is pooled by the server), shared by every activation
 * that reaches it with the same {@link DatabaseLogin}: idle plain connections (polls, outcomes,
 * management reads, one-phase deliveries) and idle XA connections (two-phase deliveries). Shared so
 * that a hundred idle queues, whose pollers look every few seconds, take a few connections of the
 * database, not one each. Each activation adds its share to how many are kept idle and takes it
 * away when it stops; the last one closes them. Made and counted by {@link Activations}. A
 * connection is lent as a {@link BorrowedConnection}, which goes back to its {@link IdleConnections}
 * set when closed; {@link io.sqlqueue.engine.ConnectionHealth} decides whether it may.
 */
final class ConnectionPool {

    /** An XA connection and the one handle the adapter uses on it. */
    record XaPair(XAConnection xa, Connection handle) implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            xa.close();
        }
    }

    final IdleConnections<Connection> plain;
    final IdleConnections<XaPair> xa;
    /** Activations using these connections; guarded by the adapter's map of them. */
    int users;

    ConnectionPool(DatabaseLogin login) {
        DataSource plainSource = DriverDataSources.plain(login.jdbcUrl(), login.user(), login.password());
        XADataSource xaSource = DriverDataSources.xa(login.jdbcUrl(), login.user(), login.password());
        this.plain = new IdleConnections<>(0, plainSource::getConnection, ConnectionHealth::answers,
                IdleConnections.quietly("a connection"));
        this.xa = new IdleConnections<>(0, () -> {
            XAConnection x = xaSource.getXAConnection();
            try {
                return new XaPair(x, x.getConnection());
            } catch (SQLException | RuntimeException e) {
                x.close();
                throw e;
            }
        }, pair -> ConnectionHealth.answers(pair.handle()), IdleConnections.quietly("an XA connection"));
    }

    /**
     * How many idle connections an activation with {@code maxConcurrency} deliveries adds: a plain
     * one per delivery (its claim when one-phase), one per delivery for its outcome and the
     * poller's; an XA one per delivery.
     */
    void resize(int maxConcurrency, int sign) {
        plain.resize(sign * (2 * maxConcurrency + 1));
        xa.resize(sign * maxConcurrency);
    }

    void closeExpired() {
        plain.closeExpired();
        xa.closeExpired();
    }

    void close() {
        plain.close();
        xa.close();
    }
}
