package io.sqlqueue.engine;

/** The dead-letter console's engine contract on SQL Server; each test is skipped, visibly, when it is not configured. */
class SqlServerDeadLetterConsoleTest extends DeadLetterConsoleContract {

    private static final TestDatabase DATABASE = TestDatabase.sqlServer();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }
}
