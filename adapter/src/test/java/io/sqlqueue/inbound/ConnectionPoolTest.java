package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.DatabaseLogin;
import io.sqlqueue.QueueResourceAdapter;
import java.sql.Connection;
import org.junit.jupiter.api.Test;

/** The adapter's own connections are shared per database and login, and closed with their last user. */
class ConnectionPoolTest {

    private static final String URL = "jdbc:h2:mem:own-connections;DB_CLOSE_DELAY=-1";

    private final Activations adapter = new Activations(new QueueResourceAdapter());

    @Test
    void activationsOfOneDatabaseAndLoginShareTheirConnections() throws Exception {
        ConnectionPool first = adapter.connectionPool(new DatabaseLogin(URL, "sa", ""), 4);
        ConnectionPool second = adapter.connectionPool(new DatabaseLogin(URL, "sa", ""), 2);
        assertSame(first, second);
        ConnectionPool otherLogin = adapter.connectionPool(new DatabaseLogin(URL, "SA2", "x"), 1);
        assertNotSame(first, otherLogin);
        adapter.releaseConnectionPool(otherLogin, 1);

        Connection physical = first.plain.borrow();
        first.plain.giveBack(physical, true);
        assertEquals(1, first.plain.idleCount());
        adapter.releaseConnectionPool(first, 4);
        assertEquals(1, first.plain.idleCount(), "still used by the second activation");
        adapter.releaseConnectionPool(second, 2);
        assertEquals(0, first.plain.idleCount(), "closed with the last activation");
        assertTrue(physical.isClosed());
        assertNotSame(first, adapter.connectionPool(new DatabaseLogin(URL, "sa", ""), 1), "made anew after the last one left");
    }

    @Test
    void aUrlOfNoSupportedDatabaseIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> adapter.connectionPool(new DatabaseLogin("jdbc:mysql://db/x", "u", "p"), 1));
        assertTrue(e.getMessage().contains("jdbc:mysql://db/x"), e.getMessage());
    }
}
