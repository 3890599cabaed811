package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.QueueResourceAdapter;
import java.sql.Connection;
import org.junit.jupiter.api.Test;

/** The adapter's own connections are shared per database and login, and closed with their last user. */
class OwnConnectionsTest {

    private static final String URL = "jdbc:h2:mem:own-connections;DB_CLOSE_DELAY=-1";

    private final Activations adapter = new Activations(new QueueResourceAdapter());

    @Test
    void activationsOfOneDatabaseAndLoginShareTheirConnections() throws Exception {
        OwnConnections first = adapter.ownConnections(URL, "sa", "", 4);
        OwnConnections second = adapter.ownConnections(URL, "sa", "", 2);
        assertSame(first, second);
        OwnConnections otherLogin = adapter.ownConnections(URL, "SA2", "x", 1);
        assertNotSame(first, otherLogin);
        adapter.releaseOwnConnections(otherLogin, 1);

        Connection physical = first.plain.borrow();
        first.plain.giveBack(physical, true);
        assertEquals(1, first.plain.idleCount());
        adapter.releaseOwnConnections(first, 4);
        assertEquals(1, first.plain.idleCount(), "still used by the second activation");
        adapter.releaseOwnConnections(second, 2);
        assertEquals(0, first.plain.idleCount(), "closed with the last activation");
        assertTrue(physical.isClosed());
        assertNotSame(first, adapter.ownConnections(URL, "sa", "", 1), "made anew after the last one left");
    }

    @Test
    void aUrlOfNoSupportedDatabaseIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> adapter.ownConnections("jdbc:mysql://db/x", "u", "p", 1));
        assertTrue(e.getMessage().contains("jdbc:mysql://db/x"), e.getMessage());
    }
}
