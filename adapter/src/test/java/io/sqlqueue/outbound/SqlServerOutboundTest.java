package io.sqlqueue.outbound;

import io.sqlqueue.engine.Babelfish;
import io.sqlqueue.engine.TestDatabase;

/**
 * The outbound contract on SQL Server (SQLQUEUE_MSSQL_*); each test skipped, visibly, without it.
 * On Babelfish, which has no XA, the test of XA's two phases skips.
 */
class SqlServerOutboundTest extends OutboundContract {

    @Override
    protected String[] database() {
        return TestDatabase.settings("SQLQUEUE_MSSQL");
    }

    @Override
    protected void assumeXA() {
        Babelfish.assumeNotBabelfish(database(), Babelfish.NO_XA);
    }
}
