package io.sqlqueue.inbound;

import io.sqlqueue.engine.Babelfish;
import io.sqlqueue.engine.SqlServerXA;
import io.sqlqueue.engine.TestDatabase;

/**
 * The inbound side on SQL Server (SQLQUEUE_MSSQL_*); each test skipped, visibly, without it. Where
 * the server has no XA (Babelfish, or a SQL Server without MS DTC and the driver's XA procedures),
 * deliveries run one-phase (useXA=false) and XA tests skip, naming the reason.
 */
class SqlServerInboundTest extends InboundContract {

    @Override
    protected String[] database() {
        return TestDatabase.settings("SQLQUEUE_MSSQL");
    }

    @Override
    protected boolean useXA() {
        return SqlServerXA.available(database());
    }

    @Override
    protected void assumeXA() {
        SqlServerXA.assumeAvailable(database());
    }

    /**
     * An update lock, as a batch reader's: the peek's shared locks pass it, the claims' READPAST
     * skips it. Babelfish ignores table hints, so such a SELECT holds nothing there: an UPDATE that
     * changes nothing locks the row instead. Its claims wait for that row rather than skip it, so
     * there the held-row tests show no spin to prevent, only that the waiting deliveries take the
     * message once, after its release.
     */
    @Override
    protected String holdRow(String q) {
        return Babelfish.isBabelfish(database()) ? "UPDATE " + q + " SET priority = priority WHERE id = ?"
                : "SELECT id FROM " + q + " WITH (UPDLOCK, ROWLOCK) WHERE id = ?";
    }

    @Override
    protected boolean claimsSkipHeldRows() {
        return !Babelfish.isBabelfish(database());
    }

    /**
     * A CHECK no journal row meets, rather than a rename: sp_rename on Babelfish 4.4 breaks every
     * later login to the database ("role dbo does not exist"), and the constraint fails the
     * inserts on both. Named after {@code away}, the name the contract would rename to.
     */
    @Override
    protected String makeJournalUnwritable(String journal, String away) {
        return "ALTER TABLE " + journal + " ADD CONSTRAINT " + away + " CHECK (message_id < 0)";
    }

    @Override
    protected String makeJournalWritable(String journal, String away) {
        return "ALTER TABLE " + journal + " DROP CONSTRAINT " + away;
    }
}
