package io.sqlqueue.it.lifecycle.crash;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;

/** {@link HaltingBean}'s JDBC resource: the test's H2 TCP server, named by SQLQUEUE_CRASH_URL. */
@DataSourceDefinition(
        name = CrashDatabase.JNDI_NAME,
        className = "org.h2.jdbcx.JdbcDataSource",
        url = "${ENV=SQLQUEUE_CRASH_URL}",
        user = "sa",
        password = "sa",
        transactional = true,
        minPoolSize = 1,
        maxPoolSize = 4)
@Singleton
public class CrashDatabase {

    public static final String JNDI_NAME = "java:global/jdbc/crash";
    public static final String QUEUE = "crash_orders";
    /** The exit status of a JVM that {@link HaltingBean} halted. */
    public static final int HALT_STATUS = 97;
    /** The bean's leaseAhead: how many messages its one delivery thread leases at once. */
    public static final int LEASE_AHEAD = 8;
}
