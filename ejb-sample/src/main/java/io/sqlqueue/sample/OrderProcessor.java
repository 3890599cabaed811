package io.sqlqueue.sample;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Processes queued orders: records each in processed_orders inside the delivery transaction, so
 * the record and the dequeue commit together. A payload that is not an order throws: the message
 * is retried and then dead-lettered with the error.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = SampleDatabase.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = SampleDatabase.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "8"),
    @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "3"),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "100"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "50"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "1000"),
    // one row per processed order in orders_queue_journal, committed with processed_orders
    @ActivationConfigProperty(propertyName = "journal", propertyValue = "true")
})
public class OrderProcessor implements QueueListener {

    @Resource(lookup = SampleDatabase.JNDI_NAME)
    private DataSource dataSource;

    @Override
    public void onMessage(QueueMessage message) {
        long orderId = OrderPayload.orderId(message.text());
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO processed_orders (order_id, message_id, processed_at) VALUES (?, ?, ?)")) {
            ps.setLong(1, orderId);
            ps.setLong(2, message.id());
            ps.setTimestamp(3, Timestamp.from(Instant.now()));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record order: " + e.getMessage(), e);
        }
    }
}
