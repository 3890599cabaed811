package io.sqlqueue.engine;

import org.junit.jupiter.api.Test;

/** The engine's contract on embedded H2. */
class H2QueueTest extends QueueContract {

    private static final TestDatabase DATABASE = TestDatabase.h2();

    @Override
    protected TestDatabase database() {
        return DATABASE;
    }

    /** A cancel that waited for the holder would fail after the URL's LOCK_TIMEOUT. */
    @Test
    void aCancelPassesOverAMessageAnotherTransactionHoldsWithoutWaiting() throws Exception {
        aCancelPassesOverAMessageAnotherTransactionHolds();
    }
}
