package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The keeping of idle connections, with numbered stand-ins for physical connections. */
class IdleConnectionsTest {

    private final AtomicInteger opened = new AtomicInteger();
    private final List<Integer> closed = new ArrayList<>();
    private final IdleConnections<Integer> pool = new IdleConnections<>(2, opened::incrementAndGet, closed::add);

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
    void aFailedConnectionIsClosedWithEveryIdleOne() throws SQLException {
        Integer a = pool.borrow();
        Integer b = pool.borrow();
        pool.giveBack(a, true);
        pool.giveBack(b, false);
        assertEquals(List.of(a, b), closed.stream().sorted().toList());
        assertEquals(0, pool.idleCount());
        assertEquals(3, pool.borrow(), "a new connection after the failure");
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
        IdleConnections<Integer> shortLived = new IdleConnections<>(2, java.time.Duration.ofMillis(50),
                opened::incrementAndGet, closed::add);
        Integer a = shortLived.borrow();
        Integer b = shortLived.borrow();
        shortLived.giveBack(a, true);
        Thread.sleep(100); // a's idle time passes the timeout
        shortLived.giveBack(b, true);
        assertSame(b, shortLived.borrow(), "b is fresh");
        assertEquals(List.of(a), closed);
        assertEquals(0, shortLived.idleCount());
        shortLived.giveBack(b, true);
        Thread.sleep(100);
        shortLived.closeExpired(); // as an idle poller does
        assertEquals(List.of(a, b), closed);
    }

    @Test
    void aFailureToOpenReachesTheBorrower() {
        IdleConnections<Integer> unreachable = new IdleConnections<>(2, () -> {
            throw new SQLException("connection refused", "08001");
        }, closed::add);
        SQLException e = assertThrows(SQLException.class, unreachable::borrow);
        assertTrue(e.getMessage().contains("refused"));
    }
}
