package io.sqlqueue.it.lifecycle.topic;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;

/** The refunds application's JDBC resource: the test's H2 TCP server, named by SQLQUEUE_TOPIC_URL. */
@DataSourceDefinition(
        name = RefundsDatabase.JNDI_NAME,
        className = "org.h2.jdbcx.JdbcDataSource",
        url = "${ENV=SQLQUEUE_TOPIC_URL}",
        user = "sa",
        password = "sa",
        transactional = true,
        minPoolSize = 1,
        maxPoolSize = 8)
@Singleton
public class RefundsDatabase {

    public static final String JNDI_NAME = "java:global/jdbc/refunds";
}
