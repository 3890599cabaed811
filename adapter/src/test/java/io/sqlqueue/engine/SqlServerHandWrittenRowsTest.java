package io.sqlqueue.engine;

import java.util.List;

/** Hand-written rows on SQL Server; skipped, visibly, when it is not configured. */
class SqlServerHandWrittenRowsTest extends HandWrittenRowsContract {

    private static final TestDatabase DATABASE = TestDatabase.sqlServer();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    /** Drops whatever default constraints the two columns have (their names are the server's). */
    @Override
    protected List<String> dropClockDefaults(String q) {
        String drop = "DECLARE @sql NVARCHAR(MAX) = N''; SELECT @sql = @sql + N'ALTER TABLE " + q
                + " DROP CONSTRAINT ' + QUOTENAME(d.name) + N'; ' FROM sys.default_constraints d"
                + " JOIN sys.columns c ON c.object_id = d.parent_object_id AND c.column_id = d.parent_column_id"
                + " WHERE d.parent_object_id = OBJECT_ID(N'" + q + "') AND c.name IN (N'visible_at', N'enqueued_at');"
                + " EXEC sp_executesql @sql";
        return List.of(drop);
    }
}
