package io.sqlqueue.engine;

/** The dead-letter console's engine contract on Postgres; each test is skipped, visibly, when it is not configured. */
class PostgresDeadLetterConsoleTest extends DeadLetterConsoleContract {

    private static final TestDatabase DATABASE = TestDatabase.postgres();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }
}
