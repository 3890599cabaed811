package io.sqlqueue.engine;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The databases tests and benchmarks run on: H2 always; PostgreSQL and SQL Server when
 * {@code SQLQUEUE_PG_URL} / {@code SQLQUEUE_MSSQL_URL} (with {@code _USER}, {@code _PASSWORD})
 * point at one.
 */
public record TestDatabase(String name, DataSource dataSource, String missingReason) {

    private static final AtomicInteger H2_DATABASES = new AtomicInteger();

    /** A fresh in-memory H2 database. */
    public static TestDatabase h2() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sqlqueue" + H2_DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        ds.setUser("sa");
        return new TestDatabase("h2", ds, null);
    }

    public static TestDatabase postgres() {
        return fromEnvironment("postgresql", "SQLQUEUE_PG", "PostgreSQL", (url, user, password) -> {
            PGSimpleDataSource ds = new PGSimpleDataSource();
            ds.setURL(url);
            ds.setUser(user);
            ds.setPassword(password);
            return ds;
        });
    }

    public static TestDatabase sqlServer() {
        return fromEnvironment("sqlserver", "SQLQUEUE_MSSQL", "SQL Server", (url, user, password) -> {
            SQLServerDataSource ds = new SQLServerDataSource();
            ds.setURL(url);
            ds.setUser(user);
            ds.setPassword(password);
            return ds;
        });
    }

    /**
     * The URL, user and password in {@code <prefix>_URL}, {@code _USER} and {@code _PASSWORD}
     * (each null when unset), as the inbound and outbound contracts take them.
     */
    public static String[] settings(String prefix) {
        return new String[] {System.getenv(prefix + "_URL"), System.getenv(prefix + "_USER"),
                System.getenv(prefix + "_PASSWORD")};
    }

    /** A database from {@code <prefix>_URL}, {@code _USER} and {@code _PASSWORD}; unavailable without a URL. */
    private static TestDatabase fromEnvironment(String name, String prefix, String label, DataSourceFactory factory) {
        String url = System.getenv(prefix + "_URL");
        if (url == null || url.isBlank()) {
            return new TestDatabase(name, null, prefix + "_URL is not set: " + label + " tests skipped");
        }
        return new TestDatabase(name,
                factory.create(url, System.getenv(prefix + "_USER"), System.getenv(prefix + "_PASSWORD")), null);
    }

    @FunctionalInterface
    private interface DataSourceFactory {
        DataSource create(String url, String user, String password);
    }

    public boolean available() {
        return dataSource != null;
    }

    public Connection connect() throws SQLException {
        return dataSource.getConnection();
    }
}
