package io.sqlqueue.outbound;

import io.sqlqueue.engine.SqlServerXA;
import io.sqlqueue.engine.TestDatabase;

/**
 * The outbound contract on SQL Server (SQLQUEUE_MSSQL_*); each test skipped, visibly, without it.
 * Where the server has no XA (Babelfish, or no MS DTC), the test of XA's two phases skips.
 */
class SqlServerOutboundTest extends OutboundContract {

    @Override
    protected String[] database() {
        return TestDatabase.settings("SQLQUEUE_MSSQL");
    }

    @Override
    protected void assumeXA() {
        SqlServerXA.assumeAvailable(database());
    }
}
