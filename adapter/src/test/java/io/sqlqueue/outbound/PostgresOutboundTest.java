package io.sqlqueue.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueException;
import io.sqlqueue.engine.DriverDataSources;
import jakarta.resource.spi.ConnectionEvent;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The outbound contract on PostgreSQL (SQLQUEUE_PG_*); each test skipped, visibly, without it. */
class PostgresOutboundTest extends OutboundContract {

    @Override
    protected String[] database() {
        return new String[] {System.getenv("SQLQUEUE_PG_URL"), System.getenv("SQLQUEUE_PG_USER"),
                System.getenv("SQLQUEUE_PG_PASSWORD")};
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
}
