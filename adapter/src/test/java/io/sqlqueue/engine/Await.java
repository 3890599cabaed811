package io.sqlqueue.engine;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Waits for a condition with a deadline, for tests of time-based behaviour (delays, leases). */
final class Await {

    private Await() {
    }

    /** Polls {@code condition} every 20 ms until it holds; fails with {@code what} after {@code timeout}. */
    static void until(Duration timeout, String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what);
            }
            Thread.sleep(20);
        }
    }
}
