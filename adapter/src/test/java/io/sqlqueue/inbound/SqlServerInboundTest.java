package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.sqlqueue.engine.Babelfish;

/**
 * The inbound side on SQL Server (SQLQUEUE_MSSQL_*); each test skipped, visibly, without it. On
 * Babelfish, which has no XA, deliveries run one-phase (useXA=false) and XA tests skip.
 */
class SqlServerInboundTest extends InboundContract {

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
    protected boolean useXA() {
        return !babelfish();
    }

    @Override
    protected void assumeXA() {
        assumeFalse(babelfish(), Babelfish.NO_XA);
    }

    /**
     * T-SQL renames with sp_rename, which takes the new name bare (brackets would become part of
     * it); the object type is optional on SQL Server, required on Babelfish.
     */
    @Override
    protected String renameTable(String from, String to) {
        return "EXEC sp_rename N'" + from + "', N'" + to.substring(1, to.length() - 1) + "', N'OBJECT'";
    }
}
