package io.sqlqueue.it.postgres;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Writes a business row through the application's XA JDBC resource and enqueues through the
 * adapter's XA connection factory: two resources, one JTA transaction, two-phase commit.
 */
@Stateless
public class XaOrderBean {

    static final String DS = "java:global/jdbc/pgxa";
    static final String QUEUES = "java:app/queue/pgxa";

    @Resource(lookup = DS)
    private DataSource dataSource;

    @Resource(lookup = QUEUES)
    private QueueConnectionFactory queues;

    @Resource
    private SessionContext context;

    /** A send alone, in its own transaction. */
    public long send(String queue, String text) {
        try (QueueConnection q = queues.getConnection()) {
            return q.send(queue, text);
        }
    }

    public void storeAndQueue(String queue, long id, boolean fail, boolean rollbackOnly) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO xa_orders (id) VALUES (?)");
                QueueConnection q = queues.getConnection()) {
            ps.setLong(1, id);
            ps.executeUpdate();
            q.send(queue, "{\"orderId\":" + id + "}");
        }
        if (fail) {
            throw new IllegalStateException("fails after both writes");
        }
        if (rollbackOnly) {
            context.setRollbackOnly();
        }
    }
}
