package io.sqlqueue.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.management.HealthReport;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A factory's readiness: no probe while sends succeed, a bounded probe after a failure, and its way back. */
class FactoryReadinessTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final AtomicBoolean databaseUp = new AtomicBoolean(true);
    private final AtomicInteger probes = new AtomicInteger();
    private final FactoryReadiness readiness = new FactoryReadiness("jdbc/orders", () -> {
        probes.incrementAndGet();
        return databaseUp.get();
    }, clock::get);

    @Test
    void readyWithoutAnyProbeWhileSendsSucceed() {
        readiness.sendSucceeded();
        for (int i = 0; i < 10; i++) {
            assertTrue(readiness.readiness().up());
        }
        assertEquals(0, probes.get(), "no connection opened for the check while sends succeed");
    }

    @Test
    void aFailedSendWithTheDatabaseAwayIsDownProbedAtMostEveryIntervalUntilItAnswers() {
        databaseUp.set(false);
        readiness.sendFailed("cannot enqueue to 'orders': Connection refused");

        HealthReport down = readiness.readiness();
        assertFalse(down.up(), down.toString());
        assertEquals("cannot enqueue to 'orders': Connection refused", down.data().get("error"));
        assertEquals("jdbc/orders", down.data().get("factory"));
        for (int i = 0; i < 20; i++) {
            assertFalse(readiness.readiness().up());
        }
        assertEquals(1, probes.get(), "one probe within the interval, however often the check is asked");

        databaseUp.set(true);
        clock.addAndGet(FactoryReadiness.PROBE_INTERVAL.toNanos() - 1);
        assertFalse(readiness.readiness().up(), "the earlier verdict until the interval has passed");
        clock.addAndGet(1);
        HealthReport back = readiness.readiness();
        assertTrue(back.up(), "the probe brings it back with no send: " + back);
        assertFalse(back.data().containsKey("error"), back.toString());
        assertEquals(2, probes.get());
        assertTrue(readiness.readiness().up());
        assertEquals(2, probes.get(), "no probe once it is up again");
    }

    @Test
    void aFailureThatIsNotTheDatabasesIsCheckedOnceAndLeavesItReady() {
        readiness.sendFailed("cannot enqueue to 'nosuch': table not found");

        assertTrue(readiness.readiness().up(), "the database answered: the failure was the statement's");
        assertEquals(1, probes.get());
    }

    @Test
    void aSuccessfulSendMakesItReadyAtOnce() {
        databaseUp.set(false);
        readiness.sendFailed("Connection refused");
        assertFalse(readiness.readiness().up());

        readiness.sendSucceeded();

        assertTrue(readiness.readiness().up());
        assertEquals(1, probes.get());
    }
}
