package io.sqlqueue.it.delivery;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
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
        try {
            String text = ((TextMessage) message).getText();
            JmsRecord.record(ds, JmsRecord.queueOf(message), message, text + "/" + message.getJMSRedelivered());
            if (text.startsWith("flaky") && !message.getJMSRedelivered()) {
                throw new IllegalStateException("fails on its first delivery");
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
