package io.sqlqueue.it.delivery;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/** A JMS bean's delivery as a row of {@code deliveries}: its row id from {@code JMSMessageID}, its attempt from {@code JMSXDeliveryCount}. */
final class JmsRecord {

    private JmsRecord() {
    }

    /** The queue a message came from, as its {@code JMSMessageID} ({@code ID:<queue>:<id>}) names it. */
    static String queueOf(Message message) throws JMSException {
        String id = message.getJMSMessageID();
        return id.substring("ID:".length(), id.lastIndexOf(':'));
    }

    static void record(DataSource ds, String queue, Message message, String body) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO deliveries (queue_name, message_id, body, attempt, batch_size) VALUES (?, ?, ?, ?, 1)")) {
            String id = message.getJMSMessageID();
            ps.setString(1, queue);
            ps.setLong(2, Long.parseLong(id.substring(id.lastIndexOf(':') + 1)));
            ps.setString(3, body);
            ps.setInt(4, message.getIntProperty("JMSXDeliveryCount"));
            ps.executeUpdate();
        } catch (SQLException | JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
