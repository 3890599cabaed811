package io.sqlqueue.inbound;

import io.sqlqueue.engine.TestDatabase;

/** The inbound side on PostgreSQL (SQLQUEUE_PG_*); each test skipped, visibly, without it. */
class PostgresInboundTest extends InboundContract {

    @Override
    protected String[] database() {
        return TestDatabase.settings("SQLQUEUE_PG");
    }
}
