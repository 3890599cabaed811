package io.sqlqueue.engine;

/** The engine's contract on PostgreSQL; each test is skipped, visibly, when it is not configured. */
class PostgresQueueTest extends QueueContract {

    private static final TestDatabase DATABASE = TestDatabase.postgres();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }
}
