package io.sqlqueue.engine;

import java.util.List;

/** Hand-written rows on SQL Server; skipped, visibly, when it is not configured. */
class SqlServerHandWrittenRowsTest extends HandWrittenRowsContract {

    private static final TestDatabase DATABASE = TestDatabase.sqlServer();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    /**
     * Makes the table again as releases before the clock defaults did. (Dropping the defaults
     * would do on SQL Server, but Babelfish keeps default constraints under other names than
     * sys.default_constraints shows, so they cannot be dropped by name there.)
     */
    @Override
    protected List<String> dropClockDefaults(String q) {
        return List.of("DROP TABLE " + q,
                "CREATE TABLE " + q + " (id BIGINT IDENTITY(1,1) NOT NULL, priority SMALLINT NOT NULL DEFAULT 0,"
                        + " visible_at DATETIME2(7) NOT NULL, enqueued_at DATETIME2(7) NOT NULL,"
                        + " attempts INT NOT NULL DEFAULT 0, dedup_key NVARCHAR(200) NULL, headers NVARCHAR(MAX) NULL,"
                        + " body VARBINARY(MAX) NOT NULL, last_error NVARCHAR(2000) NULL, lease_token BIGINT NULL,"
                        + " PRIMARY KEY NONCLUSTERED (id))",
                "CREATE UNIQUE CLUSTERED INDEX dequeue ON " + q + " (priority DESC, id)",
                "CREATE UNIQUE NONCLUSTERED INDEX dedup ON " + q + " (dedup_key) WHERE dedup_key IS NOT NULL");
    }
}
