package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Babelfish for PostgreSQL, the SQL Server stand-in the build machines run: it speaks TDS and
 * T-SQL but cannot show some of SQL Server's behaviour (the limitations below, measured in
 * ../shared/babelfish/README.md). A test that fails only because of one of them skips itself there,
 * visibly, naming it; on a real SQL Server it runs.
 */
public final class Babelfish {

    public static final String IGNORES_READPAST = "Babelfish ignores READPAST: a claim waits for rows another"
            + " transaction holds instead of skipping them; only a real SQL Server can show this";
    public static final String NO_XA = "Babelfish has no XA (xp_sqljdbc_xa_init_ex is absent, XA start fails);"
            + " only a real SQL Server can run this";

    private Babelfish() {
    }

    /** Whether {@code c} is connected to Babelfish: SERVERPROPERTY('Babelfish') is 1 there, NULL on SQL Server. */
    public static boolean isBabelfish(Connection c) throws SQLException {
        if (!c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("sql server")) {
            return false;
        }
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT CAST(SERVERPROPERTY('Babelfish') AS int)")) {
            return rs.next() && rs.getInt(1) == 1;
        }
    }

    /** Whether the database at {@code url} is Babelfish; asked once per URL. */
    public static boolean isBabelfish(String url, String user, String password) {
        return BY_URL.computeIfAbsent(url, u -> {
            try (Connection c = DriverDataSources.plain(u, user, password).getConnection()) {
                return isBabelfish(c);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot ask " + DriverDataSources.withoutSecrets(u)
                        + " whether it is Babelfish", e);
            }
        });
    }

    private static final Map<String, Boolean> BY_URL = new ConcurrentHashMap<>();

    /** Skips the calling test when {@code c} is connected to Babelfish, with {@code limitation} as the reason. */
    public static void assumeNotBabelfish(Connection c, String limitation) throws SQLException {
        assumeFalse(isBabelfish(c), limitation);
    }
}
