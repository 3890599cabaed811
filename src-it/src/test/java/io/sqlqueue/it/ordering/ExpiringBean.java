package io.sqlqueue.it.ordering;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * Ordered delivery with expired messages discarded: records each message it gets in
 * {@code expiring_deliveries}; a message whose body is "slow" takes two seconds, holding its key.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = KeyOrderIT.EXPIRING_QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = KeyOrderIT.DS),
    @ActivationConfigProperty(propertyName = "orderedDelivery", propertyValue = "true"),
    @ActivationConfigProperty(propertyName = "expiredMessages", propertyValue = "discard"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class ExpiringBean implements QueueListener {

    @Resource(lookup = KeyOrderIT.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage m) {
        if (m.text().equals("slow")) {
            LockSupport.parkNanos(Duration.ofSeconds(2).toNanos()); // the work, longer than the next one lives
        }
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO expiring_deliveries (body) VALUES (?)")) {
            ps.setString(1, m.text());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
