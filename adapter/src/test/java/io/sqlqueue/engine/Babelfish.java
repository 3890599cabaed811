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

    /**
     * Not in the README's table yet (measured here, to be added there): it cannot prove SQL
     * Server's locking, and a lost lock wait is its generic error 33557097 rather than 1222.
     */
    public static final String OTHER_LOCK_TIMEOUT_ERROR = "Babelfish cannot prove SQL Server's locking: it reports a"
            + " lock time-out (SET LOCK_TIMEOUT) as error 33557097, not SQL Server's 1222, so the retry of a lost"
            + " lock wait shows only on a real SQL Server";

    public static final String REFUSES_ISOLATION_CHANGE_IN_A_PREPARED_STATEMENT = "Babelfish refuses a SET TRANSACTION"
            + " ISOLATION LEVEL that changes the session's level inside a prepared statement (\"SET TRANSACTION ISOLATION"
            + " failed, transaction aborted\"); that SQL Server runs it there and restores the session's level after,"
            + " only a real SQL Server can show";
    public static final String RUNS_OUTPUT_ON_TABLES_WITH_TRIGGERS = "Babelfish runs OUTPUT on a table with an enabled"
            + " trigger, which SQL Server refuses (error 334); only a real SQL Server can show the refusal";

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

    /** Whether the database at {@code settings} (URL, user, password) is Babelfish; asked once per URL. */
    public static boolean isBabelfish(String[] settings) {
        return BY_URL.computeIfAbsent(settings[0], u -> {
            try (Connection c = DriverDataSources.plain(u, settings[1], settings[2]).getConnection()) {
                return isBabelfish(c);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot ask " + DriverDataSources.withoutSecrets(u)
                        + " whether it is Babelfish", e);
            }
        });
    }

    private static final Map<String, Boolean> BY_URL = new ConcurrentHashMap<>();

    /** Skips the calling test when {@code settings} (URL, user, password) name Babelfish, with {@code limitation} as the reason. */
    public static void assumeNotBabelfish(String[] settings, String limitation) {
        assumeFalse(isBabelfish(settings), limitation);
    }

    /** Skips the calling test when {@code c} is connected to Babelfish, with {@code limitation} as the reason. */
    public static void assumeNotBabelfish(Connection c, String limitation) throws SQLException {
        assumeFalse(isBabelfish(c), limitation);
    }
}
