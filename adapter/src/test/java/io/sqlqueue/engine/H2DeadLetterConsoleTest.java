package io.sqlqueue.engine;

/** The dead-letter console's engine contract on H2 (embedded). */
class H2DeadLetterConsoleTest extends DeadLetterConsoleContract {

    private static final TestDatabase DATABASE = TestDatabase.h2();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }
}
