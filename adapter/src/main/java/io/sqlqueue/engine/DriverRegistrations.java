package io.sqlqueue.engine;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The JDBC drivers packed in the adapter register themselves with the JVM-wide
 * {@link DriverManager} when their classes initialize (pgjdbc's data sources even connect through
 * it), and a registered driver keeps its class loader, so the whole undeployed adapter, reachable.
 * The first resource adapter instance of a deployment initializes them, so that whatever
 * registers is registered before the last instance stops, which deregisters the drivers its class
 * loader registered (a driver class first initialized after that would stay registered for good);
 * they are registered again should another instance start in the same deployment. The .rar packs
 * the drivers without their {@code java.sql.Driver} service entry, so no server initializes them in
 * a class loader the adapter never runs in. Outside an application server (tests, plain Java) the
 * adapter's classes are the application's own and nothing is deregistered.
 */
public final class DriverRegistrations {

    private static final Logger LOG = Logger.getLogger(DriverRegistrations.class.getName());
    private static final ClassLoader OURS = DriverRegistrations.class.getClassLoader();
    private static int inUse;
    private static final List<Driver> DEREGISTERED = new ArrayList<>();
    private static final List<String> PACKED_DRIVERS = List.of("org.h2.Driver", "org.postgresql.Driver",
            "com.microsoft.sqlserver.jdbc.SQLServerDriver");
    private static boolean initialized;

    private DriverRegistrations() {
    }

    /** A resource adapter instance started. */
    public static synchronized void acquire() {
        if (!initialized) {
            initialized = true;
            for (String driver : PACKED_DRIVERS) {
                try {
                    Class.forName(driver, true, OURS);
                } catch (ClassNotFoundException | LinkageError e) {
                    LOG.log(Level.FINE, "the JDBC driver " + driver + " is not available", e);
                }
            }
        }
        if (inUse++ == 0) {
            for (Driver d : DEREGISTERED) {
                try {
                    DriverManager.registerDriver(d);
                } catch (SQLException e) {
                    LOG.log(Level.WARNING, "cannot register the JDBC driver " + d.getClass().getName() + " again", e);
                }
            }
            DEREGISTERED.clear();
        }
    }

    /** A resource adapter instance stopped: the last one deregisters this deployment's drivers. */
    public static synchronized void release() {
        if (inUse == 0 || --inUse > 0 || OURS == ClassLoader.getSystemClassLoader()) {
            return;
        }
        for (Driver d : Collections.list(DriverManager.getDrivers())) {
            if (d.getClass().getClassLoader() == OURS) {
                try {
                    DriverManager.deregisterDriver(d);
                    DEREGISTERED.add(d);
                } catch (SQLException | SecurityException e) {
                    LOG.log(Level.WARNING, "cannot deregister the JDBC driver " + d.getClass().getName()
                            + ": the undeployed adapter's classes stay in memory", e);
                }
            }
        }
        if (!DEREGISTERED.isEmpty()) {
            LOG.fine(() -> "deregistered the adapter's JDBC drivers " + DEREGISTERED);
        }
    }
}
