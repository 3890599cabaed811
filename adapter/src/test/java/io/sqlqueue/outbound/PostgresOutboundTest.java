package io.sqlqueue.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueException;
import io.sqlqueue.engine.DriverDataSources;
import io.sqlqueue.engine.TestDatabase;
import jakarta.resource.spi.ConnectionEvent;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The outbound contract on PostgreSQL (SQLQUEUE_PG_*); each test skipped, visibly, without it. */
class PostgresOutboundTest extends OutboundContract {

    @Override
    protected String[] database() {
        return TestDatabase.settings("SQLQUEUE_PG");
    }

    @Test
    void aConnectionKilledByTheServerFailsOnceReportsTheErrorAndIsNotReused() throws Exception {
        QueueManagedConnection mc = (QueueManagedConnection) mcf.createManagedConnection(null, null);
        List<ConnectionEvent> events = new ArrayList<>();
        mc.addConnectionEventListener(recorder(events));
        QueueConnection handle = (QueueConnection) mc.getConnection(null, null);
        handle.send(queue, "before");
        String[] db = database();
        try (Connection killer = DriverDataSources.plain(db[0], db[1], db[2]).getConnection();
                Statement s = killer.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                        + " AND query LIKE 'INSERT INTO \"" + queue + "\"%'")) {
            assertTrue(rs.next() && rs.getBoolean(1), "the queue connection's backend was terminated");
        }

        QueueException e = org.junit.jupiter.api.Assertions.assertThrows(QueueException.class,
                () -> handle.send(queue, "after"));
        assertTrue(e.getMessage().contains(queue), e.getMessage());
        assertEquals(1, events.size());
        assertEquals(ConnectionEvent.CONNECTION_ERROR_OCCURRED, events.get(0).getId());
        mc.destroy();
    }

    @Test
    void afterOneBrokenConnectionTheOtherIdleOnesAreCheckedBeforeReuse() throws Exception {
        QueueManagedConnection used = (QueueManagedConnection) mcf.createManagedConnection(null, null);
        QueueManagedConnection idle = (QueueManagedConnection) mcf.createManagedConnection(null, null);
        ((QueueConnection) used.getConnection(null, null)).send(queue, "before");
        ((QueueConnection) idle.getConnection(null, null)).send(queue, "before too");
        String[] db = database();
        try (Connection killer = DriverDataSources.plain(db[0], db[1], db[2]).getConnection();
                Statement s = killer.createStatement()) {
            s.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND pid <> pg_backend_pid() AND query LIKE 'INSERT INTO \"" + queue + "\"%'").close();
        }
        assertSame(idle, mcf.matchManagedConnections(new HashSet<>(Set.of(idle)), null, null),
                "nothing broke yet as far as the factory knows: no check, no cost");

        org.junit.jupiter.api.Assertions.assertThrows(QueueException.class,
                () -> ((QueueConnection) used.getConnection(null, null)).send(queue, "fails once"));

        assertNull(mcf.matchManagedConnections(new HashSet<>(Set.of(idle)), null, null),
                "the other killed connection is found broken and not handed out");
        QueueManagedConnection fresh = (QueueManagedConnection) mcf.createManagedConnection(null, null);
        assertSame(fresh, mcf.matchManagedConnections(new HashSet<>(Set.of(idle, fresh)), null, null));
        ((QueueConnection) fresh.getConnection(null, null)).send(queue, "after");
        used.destroy();
        idle.destroy();
        fresh.destroy();
    }
}
