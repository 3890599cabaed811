package io.sqlqueue.engine;

/** The engine's contract on embedded H2. */
class H2QueueTest extends QueueContract {

    private static final TestDatabase DATABASE = TestDatabase.h2();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }
}
