package io.sqlqueue.it.topic;

import io.sqlqueue.api.QueueMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/** What the subscribing beans share: the table {@code topic_deliveries} they record into. */
final class TopicBeans {

    private TopicBeans() {
    }

    static void record(DataSource ds, String subscription, QueueMessage m) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO topic_deliveries (subscription, body) VALUES (?, ?)")) {
            ps.setString(1, subscription);
            ps.setString(2, m.text());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
