package io.sqlqueue.outbound;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.sqlqueue.engine.Babelfish;

/**
 * The outbound contract on SQL Server (SQLQUEUE_MSSQL_*); each test skipped, visibly, without it.
 * On Babelfish, which has no XA, the test of XA's two phases skips.
 */
class SqlServerOutboundTest extends OutboundContract {

    @Override
    protected String[] database() {
        return new String[] {System.getenv("SQLQUEUE_MSSQL_URL"), System.getenv("SQLQUEUE_MSSQL_USER"),
                System.getenv("SQLQUEUE_MSSQL_PASSWORD")};
    }

    private boolean babelfish() {
        String[] db = database();
        return Babelfish.isBabelfish(db[0], db[1], db[2]);
    }

    @Override
    protected void assumeXA() {
        assumeFalse(babelfish(), Babelfish.NO_XA);
    }
}
