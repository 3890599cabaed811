package io.sqlqueue.it.delivery;

import io.sqlqueue.api.QueueMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * What the message-driven beans of this package share: the JDBC resource {@link #DS} (declared in
 * the test's web.xml, for the database of the run) and the table {@code deliveries} in which they
 * record what they receive. (Each bean is a top-level class: WildFly rejects nested bean classes.)
 */
final class DeliveryBeans {

    static final String DS = "java:global/jdbc/delivery";
    /** The Queue administered object of {@link JmsLooked}'s destinationLookup, for the table lookup_q. */
    static final String LOOKUP_QUEUE = "java:app/jms/lookupQueue";
    /** The Topic administered object of {@link JmsLookedTopic}'s destinationLookup, for the topic lookup_t. */
    static final String LOOKUP_TOPIC = "java:app/jms/lookupTopic";

    private DeliveryBeans() {
    }

    static void record(DataSource ds, String queue, List<QueueMessage> messages) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO deliveries (queue_name, message_id, body, attempt, batch_size) VALUES (?, ?, ?, ?, ?)")) {
            for (QueueMessage m : messages) {
                ps.setString(1, queue);
                ps.setLong(2, m.id());
                ps.setString(3, m.text());
                ps.setInt(4, m.attempt());
                ps.setInt(5, messages.size());
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
