package io.sqlqueue.engine;

/** The engine's contract on SQL Server; each test is skipped, visibly, when it is not configured. */
class SqlServerQueueTest extends QueueContract {

    private static final TestDatabase DATABASE = TestDatabase.sqlServer();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }
}
