package io.sqlqueue.it.lifecycle.topic;

import io.sqlqueue.api.QueueMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * What the subscribing beans do with a message: a row in {@code topic_deliveries}, in the
 * delivery's transaction. Deployed as two applications ({@code TwoApplicationsTopicIT}) or in one
 * ({@code TopicIT}).
 */
public final class TopicDeliveries {

    /** The topic both applications subscribe to. */
    public static final String TOPIC = "app_events";
    /** The table the beans record into (H2 and PostgreSQL). */
    public static final String CREATE_TABLE = "CREATE TABLE IF NOT EXISTS topic_deliveries"
            + " (application VARCHAR(20), message_id BIGINT, body VARCHAR(40))";

    private TopicDeliveries() {
    }

    static void record(DataSource ds, String application, QueueMessage m) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO topic_deliveries (application, message_id, body) VALUES (?, ?, ?)")) {
            ps.setString(1, application);
            ps.setLong(2, m.id());
            ps.setString(3, m.text());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
