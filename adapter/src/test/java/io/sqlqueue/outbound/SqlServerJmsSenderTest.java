package io.sqlqueue.outbound;

import io.sqlqueue.engine.TestDatabase;

/** The JMS sender on SQL Server (SQLQUEUE_MSSQL_*); each test skipped, visibly, without it. */
class SqlServerJmsSenderTest extends JmsSenderContract {

    @Override
    protected String[] database() {
        return TestDatabase.settings("SQLQUEUE_MSSQL");
    }
}
