package io.sqlqueue.it.delivery;

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
 * {@link Flaky} as a Jakarta Messaging bean: records each delivery of a TextMessage (its queue and id
 * from {@code JMSMessageID}, its attempt from {@code JMSXDeliveryCount}, and {@code JMSRedelivered}
 * after its text) in the delivery's transaction, and fails the first delivery of every message whose
 * text starts with "flaky". Bound to the adapter on Payara by the glassfish-ejb-jar.xml
 * {@link DeliveryIT} adds (a server binds a MessageListener bean to its own JMS adapter otherwise),
 * on WildFly by the archive's jboss-ejb3.xml.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "jms_q"),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
    @ActivationConfigProperty(propertyName = "acknowledgeMode", propertyValue = "Auto-acknowledge"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
public class JmsFlaky implements MessageListener {
    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(Message message) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO deliveries (queue_name, message_id, body, attempt, batch_size) VALUES (?, ?, ?, ?, 1)")) {
            String id = message.getJMSMessageID();
            String text = ((TextMessage) message).getText();
            ps.setString(1, id.substring("ID:".length(), id.lastIndexOf(':'))); // the queue it came from
            ps.setLong(2, Long.parseLong(id.substring(id.lastIndexOf(':') + 1)));
            ps.setString(3, text + "/" + message.getJMSRedelivered());
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
