package io.sqlqueue.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.management.ConsumerHealth.Circuit;
import io.sqlqueue.management.ConsumerHealth.Facts;
import io.sqlqueue.management.ConsumerHealth.LastLook;
import java.util.List;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The verdicts of an activation's readiness and liveness checks, and the names they are shown under. */
class ConsumerHealthTest {

    private static final long MAX_POLL = 1_000;
    private static final long LIMIT = ConsumerHealth.livenessLimit(MAX_POLL);

    private static Facts facts(boolean paused, LastLook look, long sinceTurn, int inFlight) {
        return facts(paused, Circuit.CLOSED, look, sinceTurn, inFlight);
    }

    private static Facts facts(boolean paused, Circuit circuit, LastLook look, long sinceTurn, int inFlight) {
        return new Facts("orders", "jdbc/orders", "com.example.OrderBean", paused, circuit, look,
                look == LastLook.FAILED ? "cannot reach the database: Connection refused" : "", sinceTurn, inFlight,
                MAX_POLL);
    }

    @Test
    void readyOnlyWhenTheDatabaseAnsweredTheLastLook() {
        HealthReport starting = ConsumerHealth.readiness(facts(false, LastLook.NONE_YET, 0, 0));
        HealthReport answered = ConsumerHealth.readiness(facts(false, LastLook.ANSWERED, 0, 0));
        HealthReport failed = ConsumerHealth.readiness(facts(false, LastLook.FAILED, 0, 0));

        assertFalse(starting.up(), "before the first look: " + starting);
        assertEquals("none yet", starting.data().get("lastLook"));
        assertTrue(answered.up(), answered.toString());
        assertFalse(answered.data().containsKey("error"), "no error while up: " + answered);
        assertFalse(failed.up(), failed.toString());
        assertEquals("cannot reach the database: Connection refused", failed.data().get("error"));
        assertEquals(List.of("queue", "database", "bean", "lastLook", "paused", "circuit", "error"),
                List.copyOf(failed.data().keySet()), "stable keys, identity first");
        assertTrue(failed.summary().startsWith("DOWN {queue=orders, database=jdbc/orders,"),
                "the JMX attribute's text: " + failed.summary());
    }

    @Test
    void aPausedActivationStaysReadyAndSaysItIsPaused() {
        HealthReport paused = ConsumerHealth.readiness(facts(true, LastLook.ANSWERED, 0, 0));

        assertTrue(paused.up(), "pausing stops consumption, not the server's traffic: " + paused);
        assertEquals(true, paused.data().get("paused"));
    }

    @Test
    void anOpenCircuitBreakerLeavesTheActivationReadyAndSaysSo() {
        HealthReport open = ConsumerHealth.readiness(facts(false, Circuit.OPEN, LastLook.ANSWERED, 0, 0));
        HealthReport off = ConsumerHealth.readiness(facts(false, Circuit.OFF, LastLook.ANSWERED, 0, 0));

        assertTrue(open.up(), "the bean's dependency is down on every server: " + open);
        assertEquals("open", open.data().get("circuit"));
        assertEquals("off", off.data().get("circuit"));
        assertEquals("closed", ConsumerHealth.readiness(facts(false, LastLook.ANSWERED, 0, 0)).data().get("circuit"));
    }

    @Test
    void aliveWhileThePollerTurnsWithinTheLimitOrDeliveriesAreInTheBeansHands() {
        assertEquals(2 * MAX_POLL + ConsumerHealth.LIVENESS_MARGIN.toMillis(), LIMIT);
        assertTrue(ConsumerHealth.liveness(facts(false, LastLook.ANSWERED, LIMIT, 0)).up(), "at the limit");
        HealthReport stuck = ConsumerHealth.liveness(facts(false, LastLook.ANSWERED, LIMIT + 1, 0));
        assertFalse(stuck.up(), "no turn beyond the limit: " + stuck);
        assertEquals(LIMIT + 1, stuck.data().get("lastTurnMillisAgo"));
        assertEquals(LIMIT, stuck.data().get("limitMillis"));
        assertTrue(ConsumerHealth.liveness(facts(false, LastLook.ANSWERED, LIMIT + 1, 3)).up(),
                "the poller waits for a slot while the bean has messages");
        assertTrue(ConsumerHealth.liveness(facts(false, LastLook.FAILED, 10, 0)).up(),
                "a poller that cannot reach the database still turns: not ready, but alive");
    }

    @Test
    void checksAreNamedAfterTheBeansJmxKeysSortedAndUnquoted() throws Exception {
        assertEquals("sqlqueue-consumer database=java:global/jdbc/orders,name=OrderBean,queue=orders",
                PayaraHealth.checkName(new ObjectName(
                        "io.sqlqueue:type=Consumer,queue=orders,database=\"java:global/jdbc/orders\",name=OrderBean")));
        assertEquals("sqlqueue-producer name=jdbc/orders",
                PayaraHealth.checkName(new ObjectName("io.sqlqueue:type=Producer,name=jdbc/orders")));
    }
}
