package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The keeping of idle connections, with numbered stand-ins for physical connections. */
class IdleConnectionsTest {

    private final AtomicInteger opened = new AtomicInteger();
    private final List<Integer> closed = new ArrayList<>();
    /** The stand-ins that no longer answer. */
    private final Set<Integer> dead = new HashSet<>();
    private final IdleConnections<Integer> pool = new IdleConnections<>(2, opened::incrementAndGet,
            c -> !dead.contains(c), closed::add);

    @Test
    void aConnectionGivenBackIsLentAgainLastReturnedFirst() throws SQLException {
        Integer a = pool.borrow();
        Integer b = pool.borrow();
        pool.giveBack(a, true);
        pool.giveBack(b, true);
        assertSame(b, pool.borrow());
        assertSame(a, pool.borrow());
        assertEquals(2, opened.get());
    }

    @Test
    void beyondItsCapacityAConnectionGivenBackIsClosed() throws SQLException {
        Integer a = pool.borrow();
        Integer b = pool.borrow();
        Integer c = pool.borrow();
        pool.giveBack(a, true);
        pool.giveBack(b, true);
        pool.giveBack(c, true);
        assertEquals(List.of(c), closed);
        assertEquals(2, pool.idleCount());
    }

    @Test
    void anUnusableConnectionIsClosedAndTheIdleOnesAreValidatedBeforeTheirNextLoanOnly() throws SQLException {
        Integer a = pool.borrow();
        Integer b = pool.borrow();
        Integer c = pool.borrow();
        pool.giveBack(a, true);
        pool.giveBack(b, true);
        dead.add(b); // b went through the same outage as c; a did not
        pool.giveBack(c, false);
        assertEquals(List.of(c), closed, "only the unusable one is closed at once");
        assertEquals(2, pool.idleCount());
        assertSame(a, pool.borrow(), "b, lent first, no longer answers: closed; a answers: lent");
        assertEquals(List.of(c, b), closed);
        dead.add(a);
        pool.giveBack(a, true);
        assertSame(a, pool.borrow(), "validated once after the failure, not at every loan");
        assertEquals(3, opened.get());
    }

    @Test
    void afterCloseNothingIsKept() throws SQLException {
        Integer a = pool.borrow();
        Integer b = pool.borrow();
        pool.giveBack(a, true);
        pool.close();
        pool.giveBack(b, true);
        assertEquals(List.of(a, b), closed);
        assertEquals(0, pool.idleCount());
    }

    @Test
    void aConnectionIdleLongerThanTheTimeoutIsClosedAtTheNextBorrow() throws Exception {
        AtomicLong clock = new AtomicLong();
        IdleConnections<Integer> timed = new IdleConnections<>(2, clock::get, opened::incrementAndGet, c -> true,
                closed::add);
        long pastTheTimeout = IdleConnections.IDLE_TIMEOUT.toNanos() + 1;
        Integer a = timed.borrow();
        Integer b = timed.borrow();
        timed.giveBack(a, true);
        clock.addAndGet(pastTheTimeout); // a's idle time passes the timeout
        timed.giveBack(b, true);
        assertSame(b, timed.borrow(), "b is fresh");
        assertEquals(List.of(a), closed);
        assertEquals(0, timed.idleCount());
        timed.giveBack(b, true);
        clock.addAndGet(pastTheTimeout);
        timed.closeExpired(); // as an idle poller does
        assertEquals(List.of(a, b), closed);
    }

    @Test
    void aFailureToOpenReachesTheBorrower() {
        IdleConnections<Integer> unreachable = new IdleConnections<>(2, () -> {
            throw new SQLException("connection refused", "08001");
        }, c -> true, closed::add);
        SQLException e = assertThrows(SQLException.class, unreachable::borrow);
        assertTrue(e.getMessage().contains("refused"));
    }
}
