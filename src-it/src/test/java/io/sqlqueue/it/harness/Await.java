package io.sqlqueue.it.harness;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/** Waits for a condition with a deadline, looking every 100 ms: the tests' one way to wait. */
public final class Await {

    private Await() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} after {@code patience}. */
    public static void until(String what, Duration patience, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + patience + " waiting until " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }
}
