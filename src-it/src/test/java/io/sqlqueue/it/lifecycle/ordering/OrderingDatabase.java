package io.sqlqueue.it.lifecycle.ordering;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;

/** {@link KeyedBean}'s JDBC resource: the test's H2 TCP server, named by SQLQUEUE_ORDERING_URL. */
@DataSourceDefinition(
        name = OrderingDatabase.JNDI_NAME,
        className = "org.h2.jdbcx.JdbcDataSource",
        url = "${ENV=SQLQUEUE_ORDERING_URL}",
        user = "sa",
        password = "sa",
        transactional = true,
        minPoolSize = 1,
        maxPoolSize = 24)
@Singleton
public class OrderingDatabase {

    public static final String JNDI_NAME = "java:global/jdbc/ordering";
    public static final String QUEUE = "ordered_events";
}
