package io.sqlqueue.it.unmodified;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A message-driven bean as JMS applications write one for their server's broker: no trace of this
 * adapter. It records each delivery (message id, text, JMSRedelivered, JMSXDeliveryCount) in its
 * own database in the delivery's transaction, and fails the first delivery of a text starting with
 * "flaky". Which provider delivers is configuration ({@link UnmodifiedApp}).
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = UnmodifiedApp.QUEUE),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
    @ActivationConfigProperty(propertyName = "acknowledgeMode", propertyValue = "Auto-acknowledge")})
public class OrderListener implements MessageListener {

    @Resource(lookup = UnmodifiedApp.DS)
    private DataSource ds;

    @Override
    public void onMessage(Message message) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO received_orders (message_id, body, redelivered, delivery_count) VALUES (?, ?, ?, ?)")) {
            String text = ((TextMessage) message).getText();
            ps.setString(1, message.getJMSMessageID());
            ps.setString(2, text);
            ps.setBoolean(3, message.getJMSRedelivered());
            ps.setInt(4, message.getIntProperty("JMSXDeliveryCount"));
            ps.executeUpdate();
            if (text.startsWith("flaky") && !message.getJMSRedelivered()) {
                throw new IllegalStateException("fails on its first delivery");
            }
        } catch (SQLException | JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
