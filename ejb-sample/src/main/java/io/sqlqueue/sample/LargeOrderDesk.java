package io.sqlqueue.sample;

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
 * A filtered durable subscription to the order events: only the large orders reach it (the
 * publisher's {@code size} header), and each is noted in large_orders.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "topic", propertyValue = SampleDatabase.EVENTS_TOPIC),
    @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = SampleDatabase.LARGE_ORDERS_SUBSCRIPTION),
    @ActivationConfigProperty(propertyName = "subscriptionFilter", propertyValue = SampleDatabase.LARGE_ORDERS_FILTER),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = SampleDatabase.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "50"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "1000")
})
public class LargeOrderDesk implements QueueListener {

    @Resource(lookup = SampleDatabase.JNDI_NAME)
    private DataSource dataSource;

    @Override
    public void onMessage(QueueMessage event) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO large_orders (order_id, event_id) VALUES (?, ?)")) {
            ps.setLong(1, OrderPayload.orderId(event.text()));
            ps.setLong(2, event.id());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot note the large order: " + e.getMessage(), e);
        }
    }
}
