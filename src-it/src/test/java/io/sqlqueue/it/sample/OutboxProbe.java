package io.sqlqueue.it.sample;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.sample.SampleDatabase;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import javax.sql.DataSource;

/** Stores an order and queues it in one transaction that then fails, one way or another. */
@Stateless
public class OutboxProbe {

    @Resource(lookup = SampleDatabase.JNDI_NAME)
    private DataSource dataSource;

    @Resource(lookup = SampleDatabase.QUEUE_FACTORY)
    private QueueConnectionFactory queues;

    @Resource
    private SessionContext context;

    public void storeAndQueueThenThrow(long orderId) throws SQLException {
        storeAndQueue(orderId);
        throw new IllegalStateException("the business transaction fails after the enqueue");
    }

    public void storeAndQueueThenSetRollbackOnly(long orderId) throws SQLException {
        storeAndQueue(orderId);
        context.setRollbackOnly();
    }

    private void storeAndQueue(long orderId) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO orders (id, customer, amount, created_at) VALUES (?, 'probe', 1, ?)");
                QueueConnection queue = queues.getConnection()) {
            ps.setLong(1, orderId);
            ps.setTimestamp(2, Timestamp.from(Instant.now()));
            ps.executeUpdate();
            queue.send(SampleDatabase.QUEUE, "{\"orderId\":" + orderId + "}");
        }
    }
}
