package io.sqlqueue.sample;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A durable subscription to the order events, delivered in order per customer (the events'
 * ordering key): each customer's entries in customer_ledger follow the order the events were
 * published in, while different customers go in parallel. Each entry records the customer's
 * previous entry, so the status can count entries that came out of order (none should).
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "topic", propertyValue = SampleDatabase.EVENTS_TOPIC),
    @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = SampleDatabase.LEDGER_SUBSCRIPTION),
    @ActivationConfigProperty(propertyName = "orderedDelivery", propertyValue = "true"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = SampleDatabase.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "50"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "1000")
})
public class CustomerLedger implements QueueListener {

    @Resource(lookup = SampleDatabase.JNDI_NAME)
    private DataSource dataSource;

    @Override
    public void onMessage(QueueMessage event) {
        long orderId = OrderPayload.orderId(event.text());
        String customer = event.orderingKey();
        try (Connection c = dataSource.getConnection()) {
            // Safe without a lock: ordered delivery runs one event of a customer at a time.
            Long previous = null;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT MAX(event_id) FROM customer_ledger WHERE customer = ?")) {
                ps.setString(1, customer);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getObject(1) != null) {
                        previous = rs.getLong(1);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO customer_ledger"
                    + " (customer, order_id, event_id, previous_event_id) VALUES (?, ?, ?, ?)")) {
                ps.setString(1, customer);
                ps.setLong(2, orderId);
                ps.setLong(3, event.id());
                ps.setObject(4, previous, java.sql.Types.BIGINT);
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record the ledger entry: " + e.getMessage(), e);
        }
    }
}
