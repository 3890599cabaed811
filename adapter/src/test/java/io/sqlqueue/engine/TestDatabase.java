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
        String url = System.getenv("SQLQUEUE_PG_URL");
        if (url == null || url.isBlank()) {
            return new TestDatabase("postgresql", null, "SQLQUEUE_PG_URL is not set: PostgreSQL tests skipped");
        }
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL(url);
        ds.setUser(System.getenv("SQLQUEUE_PG_USER"));
        ds.setPassword(System.getenv("SQLQUEUE_PG_PASSWORD"));
        return new TestDatabase("postgresql", ds, null);
    }

    public static TestDatabase sqlServer() {
        String url = System.getenv("SQLQUEUE_MSSQL_URL");
        if (url == null || url.isBlank()) {
            return new TestDatabase("sqlserver", null, "SQLQUEUE_MSSQL_URL is not set: SQL Server tests skipped");
        }
        SQLServerDataSource ds = new SQLServerDataSource();
        ds.setURL(url);
        ds.setUser(System.getenv("SQLQUEUE_MSSQL_USER"));
        ds.setPassword(System.getenv("SQLQUEUE_MSSQL_PASSWORD"));
        return new TestDatabase("sqlserver", ds, null);
    }

    public boolean available() {
        return dataSource != null;
    }

    public Connection connect() throws SQLException {
        return dataSource.getConnection();
    }
}
