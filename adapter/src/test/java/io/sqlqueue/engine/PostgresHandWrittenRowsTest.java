package io.sqlqueue.engine;

import java.util.List;

/** Hand-written rows on PostgreSQL; skipped, visibly, when it is not configured. */
class PostgresHandWrittenRowsTest extends HandWrittenRowsContract {

    private static final TestDatabase DATABASE = TestDatabase.postgres();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    @Override
    protected List<String> dropClockDefaults(String q) {
        return List.of("ALTER TABLE " + q + " ALTER COLUMN visible_at DROP DEFAULT",
                "ALTER TABLE " + q + " ALTER COLUMN enqueued_at DROP DEFAULT");
    }
}
