package io.sqlqueue.it.delivery;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import javax.sql.DataSource;

/**
 * A Jakarta Messaging bean with a message selector, in order per {@code JMSXGroupID}: takes only
 * the queue's messages whose property {@code region} is {@code eu}, the others staying queued, and
 * records each delivery (its group as the body) in the delivery's transaction. Bound to the adapter
 * as {@link JmsFlaky} is.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = JmsSelective.QUEUE),
    @ActivationConfigProperty(propertyName = "messageSelector", propertyValue = "region = 'eu'"),
    @ActivationConfigProperty(propertyName = "orderedDelivery", propertyValue = "true"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class JmsSelective implements MessageListener {

    static final String QUEUE = "jms_sel_q";

    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(Message message) {
        JmsRecord.record(ds, QUEUE, message, stringProperty(message, "JMSXGroupID"));
    }

    static String stringProperty(Message message, String name) {
        try {
            return message.getStringProperty(name);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
