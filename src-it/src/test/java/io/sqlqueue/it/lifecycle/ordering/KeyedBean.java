package io.sqlqueue.it.lifecycle.ordering;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * Ordered delivery, 16 at a time, in each of two servers consuming one queue: records each
 * delivery it commits in {@code keyed_deliveries} with its server, start and end, and rolls back
 * the first delivery of every tenth message.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = OrderingDatabase.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = OrderingDatabase.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "orderedDelivery", propertyValue = "true"),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "16"),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class KeyedBean implements QueueListener {

    @Resource(lookup = OrderingDatabase.JNDI_NAME)
    private DataSource ds;

    @Resource
    private MessageDrivenContext context;

    @Override
    public void onMessage(QueueMessage m) {
        long started = micros();
        LockSupport.parkNanos(500_000); // the work
        if (m.id() % 10 == 3 && m.attempt() == 1) {
            context.setRollbackOnly();
            return;
        }
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("INSERT INTO keyed_deliveries"
                + " (message_id, ordering_key, idx, server, started_us, ended_us) VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setLong(1, m.id());
            ps.setString(2, m.orderingKey());
            ps.setInt(3, Integer.parseInt(m.text()));
            ps.setString(4, System.getenv("SQLQUEUE_ORDERING_SERVER"));
            ps.setLong(5, started);
            ps.setLong(6, micros());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
