package io.sqlqueue.it.metrics;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Records each message in {@code metrics_deliveries}, in its delivery's transaction, and fails the
 * ones whose text starts with "poison" on both of their attempts, so they are dead-lettered.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = MetricsLoad.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = MetricsLoad.DS),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "100")})
public class PoisonRefusingBean implements QueueListener {

    static final String CREATE_TABLE = "CREATE TABLE IF NOT EXISTS metrics_deliveries (message_id BIGINT PRIMARY KEY,"
            + " body VARCHAR(100))";

    @Resource(lookup = MetricsLoad.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        if (message.text().startsWith("poison")) {
            throw new IllegalArgumentException("refused: " + message.text());
        }
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO metrics_deliveries VALUES (?, ?)")) {
            ps.setLong(1, message.id());
            ps.setString(2, message.text());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
