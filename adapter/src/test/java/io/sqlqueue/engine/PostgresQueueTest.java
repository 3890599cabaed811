package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;

/** The engine's contract on PostgreSQL; skipped, visibly, when it is not configured. */
class PostgresQueueTest extends QueueContract {

    private static final TestDatabase DATABASE = TestDatabase.postgres();

    @BeforeAll
    static void requireDatabase() {
        assumeTrue(DATABASE.available(), DATABASE.missingReason());
    }

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }
}
