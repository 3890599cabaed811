package io.sqlqueue.inbound;

import io.sqlqueue.DatabaseLogin;
import io.sqlqueue.JndiLookup;
import jakarta.resource.ResourceException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.naming.NamingException;
import javax.sql.DataSource;
import javax.transaction.xa.XAResource;

/**
 * How an activation reaches its queue's database, in one of three ways:
 * <ul>
 * <li><b>XA</b> (own {@code jdbcUrl}, the default): each delivery thread holds an XA connection
 * whose XAResource the container enlists, so the dequeue commits with the bean's other resources
 * in two phases;
 * <li><b>one-phase</b> ({@code useXA=false}): a plain connection behind a {@link LocalXAResource};
 * <li><b>server resource</b> ({@code dataSourceJndiName}): a connection of that JDBC resource,
 * borrowed after {@code beforeDelivery} (so the server enlists it in the bean's transaction) and
 * returned before {@code afterDelivery}; the endpoint gets no XAResource of ours.
 * </ul>
 * The first two share the adapter's idle connections to the same database and login
 * ({@link ConnectionPool}) until {@link #close()}.
 */
abstract class DeliveryConnections {

    /**
     * Which database this reaches, for the management beans' names: the JNDI name of the server
     * resource, or the JDBC URL without secrets. Two same-named queues of two databases in one server
     * are two queues.
     */
    abstract String database();

    /** A connection for peeking and failure records, outside any transaction (auto-commit). */
    abstract Connection plain() throws SQLException;

    /**
     * Whether this is a data source the application declares itself ({@code @DataSourceDefinition},
     * a web.xml {@code <data-source>}): named in {@code java:global/}, {@code java:app/},
     * {@code java:module/} or {@code java:comp/}, where Jakarta EE puts those. The server may
     * create it only while it deploys the application (see Poller).
     */
    boolean declaredByApplication() {
        return false;
    }

    /** One delivery thread's link to the database. */
    abstract Channel channel() throws SQLException;

    /** Closes the connections kept for reuse that have been idle too long. */
    void closeExpired() {
    }

    /** Closes the idle connections kept for reuse (the activation has stopped). */
    void close() {
    }

    /** What the delivery thread holds between deliveries. */
    interface Channel extends AutoCloseable {
        /** For {@code createEndpoint}; null where the server enlists its own resource. */
        XAResource xaResource() throws SQLException;

        /** The connection to claim on, after {@code beforeDelivery}; give it back with {@link #release}. */
        Connection claimConnection() throws SQLException;

        /** Called before {@code afterDelivery}: a borrowed server connection goes back here. */
        void release(Connection c) throws SQLException;

        @Override
        void close() throws SQLException;
    }

    static DeliveryConnections of(QueueActivationSpec spec, Activations activations) throws ResourceException {
        if (!spec.getDataSourceJndiName().isEmpty()) {
            return new ServerResource(spec.getDataSourceJndiName());
        }
        DatabaseLogin login = DatabaseLogin.of(spec.getJdbcUrl(), spec.getUser(), spec.getPassword(),
                activations.adapter());
        if (!login.hasUrl()) {
            throw new jakarta.resource.spi.InvalidPropertyException("activation property jdbcUrl is empty and so is"
                    + " the resource adapter's: set one of them, or dataSourceJndiName");
        }
        try {
            int deliveries = spec.getMaxConcurrency();
            ConnectionPool own = activations.connectionPool(login, deliveries);
            return Boolean.FALSE.equals(spec.getUseXA()) ? new OnePhase(activations, own, login.database(), deliveries)
                    : new Xa(activations, own, login.database(), deliveries);
        } catch (IllegalArgumentException e) {
            throw new jakarta.resource.spi.InvalidPropertyException("activation property " + e.getMessage(), e);
        }
    }

    /** The JDBC resource bound at {@code name}; an SQLException (an outage to the poller) until it is bound. */
    private static DataSource lookup(String name) throws SQLException {
        try {
            return JndiLookup.find("dataSourceJndiName", name, DataSource.class);
        } catch (NamingException e) {
            throw new SQLException(e.getMessage(), e);
        }
    }

    /** Two-phase commit through the driver's XA connections, kept with the adapter's others. */
    private static final class Xa extends OwnDatabase {

        Xa(Activations activations, ConnectionPool own, String database, int deliveries) {
            super(activations, own, database, deliveries);
        }

        @Override
        Channel channel() throws SQLException {
            ConnectionPool.XaPair pair = own.xa.borrow();
            BorrowedConnection claims = BorrowedConnection.watching(pair.handle());
            return new Channel() {
                @Override
                public XAResource xaResource() throws SQLException {
                    return pair.xa().getXAResource();
                }

                @Override
                public Connection claimConnection() {
                    return claims.handle();
                }

                @Override
                public void release(Connection ignored) {
                }

                @Override
                public void close() {
                    own.xa.giveBack(pair, outsideTransaction(pair.handle()) && claims.usable());
                }
            };
        }
    }

    /** One local transaction, committed by the transaction manager's one-phase commit. */
    private static final class OnePhase extends OwnDatabase {

        OnePhase(Activations activations, ConnectionPool own, String database, int deliveries) {
            super(activations, own, database, deliveries);
        }

        @Override
        Channel channel() throws SQLException {
            Connection c = own.plain.borrow();
            BorrowedConnection claims = BorrowedConnection.watching(c);
            LocalXAResource resource = new LocalXAResource(claims.handle()); // a failed commit is noted too
            return new Channel() {
                @Override
                public XAResource xaResource() {
                    return resource;
                }

                @Override
                public Connection claimConnection() {
                    return claims.handle();
                }

                @Override
                public void release(Connection ignored) {
                }

                @Override
                public void close() {
                    own.plain.giveBack(c, outsideTransaction(c) && claims.usable());
                }
            };
        }
    }

    /** The adapter's own connections ({@code jdbcUrl}), shared with the activations of the same database and login. */
    private abstract static class OwnDatabase extends DeliveryConnections {
        private final Activations activations;
        final ConnectionPool own;
        private final String database;
        private final int deliveries;
        private final AtomicBoolean closed = new AtomicBoolean();

        OwnDatabase(Activations activations, ConnectionPool own, String database, int deliveries) {
            this.activations = activations;
            this.own = own;
            this.database = database;
            this.deliveries = deliveries;
        }

        @Override
        String database() {
            return database;
        }

        @Override
        Connection plain() throws SQLException {
            return BorrowedConnection.lend(own.plain);
        }

        @Override
        void closeExpired() {
            own.closeExpired();
        }

        @Override
        void close() {
            if (closed.compareAndSet(false, true)) {
                activations.releaseConnectionPool(own, deliveries);
            }
        }
    }

    /**
     * Whether a delivery's connection is back in auto-commit, its transaction ended by the
     * container: only then may another delivery use it. (One left in a transaction, a delivery
     * cut short, is closed, which rolls it back.)
     */
    private static boolean outsideTransaction(Connection c) {
        try {
            return !c.isClosed() && c.getAutoCommit();
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * The server's JDBC resource: it enlists the connection in the bean's transaction itself.
     * Looked up on first use, not at activation: an application's own {@code @DataSourceDefinition}
     * may be bound after its message-driven beans are activated.
     */
    private static final class ServerResource extends DeliveryConnections {
        /** Per JNDI name, held while an activation makes its first connection (see {@link #ds()}). */
        private static final Map<String, Object> FIRST_CONNECTIONS = new ConcurrentHashMap<>();

        private final String name;
        private volatile DataSource ds;

        ServerResource(String name) {
            this.name = name;
        }

        @Override
        String database() {
            return name;
        }

        /**
         * Payara creates an application's {@code @DataSourceDefinition} pool on its first
         * {@code getConnection}. Several pollers doing that at once during deployment created it
         * several times and left it unregistered: "pool is null" for every later caller, the
         * application too, until a redeployment (seen in CI). So the first connection per name is
         * made by one activation at a time.
         */
        private DataSource ds() throws SQLException {
            DataSource found = ds;
            if (found == null) {
                synchronized (FIRST_CONNECTIONS.computeIfAbsent(name, n -> new Object())) {
                    DataSource candidate = lookup(name);
                    candidate.getConnection().close();
                    found = candidate;
                }
                ds = found;
            }
            return found;
        }

        @Override
        Connection plain() throws SQLException {
            return ds().getConnection();
        }

        @Override
        boolean declaredByApplication() {
            return name.startsWith("java:global/") || name.startsWith("java:app/") || name.startsWith("java:module/")
                    || name.startsWith("java:comp/");
        }

        @Override
        Channel channel() throws SQLException {
            DataSource source = ds();
            return new Channel() {
                @Override
                public XAResource xaResource() {
                    return null; // a no-op resource here would promote every delivery to two-phase commit
                }

                @Override
                public Connection claimConnection() throws SQLException {
                    return source.getConnection(); // after beforeDelivery: enlisted in the bean's transaction
                }

                @Override
                public void release(Connection c) throws SQLException {
                    c.close(); // before afterDelivery, as the servers require
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
