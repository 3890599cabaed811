package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * Whether a SQL Server can run XA branches. Many cannot: XA through mssql-jdbc needs MS DTC with
 * "Enable XA Transactions" and the driver's procedures in master ({@code EXEC sp_sqljdbc_xa_install}),
 * and Babelfish has none of it. Where XA is missing the SQL Server tests deliver one-phase
 * ({@code useXA=false}, which the adapter supports for exactly such servers) and the tests of XA itself
 * skip, naming the reason, instead of failing on a setup the adapter does not require.
 */
public final class SqlServerXA {

    private static final Map<String, String> REASON_BY_URL = new ConcurrentHashMap<>();
    private static final String AVAILABLE = "";

    private SqlServerXA() {
    }

    /**
     * Why XA cannot run on the server at {@code settings} (URL, user, password), or null where it
     * can. Asked once per URL, by starting a branch and rolling it back, as a transaction manager
     * would: the driver reaches MS DTC at the start of the first branch.
     */
    public static String unavailableReason(String[] settings) {
        String reason = REASON_BY_URL.computeIfAbsent(settings[0], url -> {
            if (Babelfish.isBabelfish(settings)) {
                return Babelfish.NO_XA;
            }
            Xid xid = TestXid.next();
            XAConnection xa = null;
            try {
                xa = DriverDataSources.xa(url, settings[1], settings[2]).getXAConnection();
                XAResource branch = xa.getXAResource();
                branch.start(xid, XAResource.TMNOFLAGS);
                branch.end(xid, XAResource.TMSUCCESS);
                branch.rollback(xid);
                return AVAILABLE;
            } catch (Exception e) {
                return "XA is not set up on this SQL Server (it needs MS DTC with XA transactions enabled and EXEC"
                        + " sp_sqljdbc_xa_install; see docs/sqlserver-verification.md): " + firstLine(e);
            } finally {
                closeQuietly(xa);
            }
        });
        return reason.isEmpty() ? null : reason;
    }

    public static boolean available(String[] settings) {
        return unavailableReason(settings) == null;
    }

    /** Skips the calling test, naming the reason, where the server at {@code settings} has no XA. */
    public static void assumeAvailable(String[] settings) {
        String reason = unavailableReason(settings);
        assumeTrue(reason == null, reason);
    }

    /** The first line of the outermost message; an XAException may carry none, its cause does. */
    private static String firstLine(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage().strip().lines().findFirst().orElseThrow();
            }
        }
        return e.getClass().getName();
    }

    private static void closeQuietly(XAConnection xa) {
        if (xa != null) {
            try {
                xa.close();
            } catch (Exception ignored) {
                // the probe's answer is already known
            }
        }
    }
}
