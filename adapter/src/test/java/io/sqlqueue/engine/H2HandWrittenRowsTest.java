package io.sqlqueue.engine;

import java.util.List;

/** Hand-written rows on embedded H2. */
class H2HandWrittenRowsTest extends HandWrittenRowsContract {

    private static final TestDatabase DATABASE = TestDatabase.h2();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    @Override
    protected int largestBody() {
        return 1024 * 1024 - 1024; // H2's variable-length limit is 1 MiB
    }

    @Override
    protected List<String> dropClockDefaults(String q) {
        return List.of("ALTER TABLE " + q + " ALTER COLUMN visible_at DROP DEFAULT",
                "ALTER TABLE " + q + " ALTER COLUMN enqueued_at DROP DEFAULT");
    }
}
