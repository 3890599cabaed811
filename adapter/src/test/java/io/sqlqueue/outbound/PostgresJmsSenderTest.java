package io.sqlqueue.outbound;

import io.sqlqueue.engine.TestDatabase;

/** The JMS sender on PostgreSQL (SQLQUEUE_PG_*); each test skipped, visibly, without it. */
class PostgresJmsSenderTest extends JmsSenderContract {

    @Override
    protected String[] database() {
        return TestDatabase.settings("SQLQUEUE_PG");
    }
}
