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
 * point at one. For SQL Server, {@code -Dsqlserver.url} and {@code -Dsqlserver.user} (the
 * command line of the verify-sqlserver profile, docs/sqlserver-verification.md) win over the
 * variables; the password is read from {@code SQLQUEUE_MSSQL_PASSWORD} only, since a {@code -D}
 * value shows in the process list and is copied into surefire's XML reports.
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
        return new String[] {setting(prefix, "URL"), setting(prefix, "USER"), System.getenv(prefix + "_PASSWORD")};
    }

    /** {@code <prefix>_<name>} from the environment, or for SQL Server's URL and user their -D property when given. */
    private static String setting(String prefix, String name) {
        if (prefix.equals("SQLQUEUE_MSSQL")) {
            String property = System.getProperty("sqlserver." + name.toLowerCase(java.util.Locale.ROOT));
            if (property != null && !property.isBlank()) {
                return property;
            }
        }
        return System.getenv(prefix + "_" + name);
    }

    /** A database from {@code <prefix>_URL}, {@code _USER} and {@code _PASSWORD}; unavailable without a URL. */
    private static TestDatabase fromEnvironment(String name, String prefix, String label, DataSourceFactory factory) {
        String[] settings = settings(prefix);
        if (settings[0] == null || settings[0].isBlank()) {
            return new TestDatabase(name, null, prefix + "_URL is not set: " + label + " tests skipped");
        }
        return new TestDatabase(name, factory.create(settings[0], settings[1], settings[2]), null);
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
