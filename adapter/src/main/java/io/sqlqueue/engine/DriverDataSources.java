package io.sqlqueue.engine;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import com.microsoft.sqlserver.jdbc.SQLServerXADataSource;
import javax.sql.DataSource;
import javax.sql.XADataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.xa.PGXADataSource;

/**
 * The drivers' own data sources, made from a JDBC URL, user and password. Instantiated directly:
 * {@code DriverManager} looks drivers up through class loaders, which misbehaves inside a .rar.
 */
public final class DriverDataSources {

    private DriverDataSources() {
    }

    /** An XA data source for two-phase commit. */
    public static XADataSource xa(String jdbcUrl, String user, String password) {
        return switch (product(jdbcUrl)) {
            case SQL_SERVER -> {
                SQLServerXADataSource ds = new SQLServerXADataSource();
                ds.setURL(jdbcUrl);
                ds.setUser(user);
                ds.setPassword(password);
                yield ds;
            }
            case POSTGRESQL -> {
                PGXADataSource ds = new PGXADataSource();
                ds.setURL(jdbcUrl);
                ds.setUser(user);
                ds.setPassword(password);
                yield ds;
            }
            case H2 -> h2(jdbcUrl, user, password);
        };
    }

    /** A plain data source, for one-phase (local) transactions. */
    public static DataSource plain(String jdbcUrl, String user, String password) {
        return switch (product(jdbcUrl)) {
            case SQL_SERVER -> {
                SQLServerDataSource ds = new SQLServerDataSource();
                ds.setURL(jdbcUrl);
                ds.setUser(user);
                ds.setPassword(password);
                yield ds;
            }
            case POSTGRESQL -> {
                PGSimpleDataSource ds = new PGSimpleDataSource();
                ds.setURL(jdbcUrl);
                ds.setUser(user);
                ds.setPassword(password);
                yield ds;
            }
            case H2 -> h2(jdbcUrl, user, password);
        };
    }

    private static JdbcDataSource h2(String jdbcUrl, String user, String password) {
        JdbcDataSource ds = new JdbcDataSource(); // both a DataSource and an XADataSource
        ds.setURL(jdbcUrl);
        ds.setUser(user);
        ds.setPassword(password);
        return ds;
    }

    private enum Product { SQL_SERVER, POSTGRESQL, H2 }

    private static Product product(String jdbcUrl) {
        if (jdbcUrl != null) {
            if (jdbcUrl.startsWith("jdbc:sqlserver:")) {
                return Product.SQL_SERVER;
            }
            if (jdbcUrl.startsWith("jdbc:postgresql:")) {
                return Product.POSTGRESQL;
            }
            if (jdbcUrl.startsWith("jdbc:h2:")) {
                return Product.H2;
            }
        }
        throw new IllegalArgumentException("jdbcUrl must start with jdbc:sqlserver:, jdbc:postgresql: or jdbc:h2:, was "
                + (jdbcUrl == null || jdbcUrl.isBlank() ? "empty" : "'" + withoutSecrets(jdbcUrl) + "'"));
    }

    /** The URL without a {@code password=} property's value, for messages and logs. */
    public static String withoutSecrets(String jdbcUrl) {
        return jdbcUrl == null ? null : jdbcUrl.replaceAll("(?i)(password=)[^;&]*", "$1****");
    }
}
