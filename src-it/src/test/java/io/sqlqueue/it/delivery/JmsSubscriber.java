package io.sqlqueue.it.delivery;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import javax.sql.DataSource;

/**
 * A Jakarta Messaging bean on a durable subscription of the topic {@value #TOPIC} whose filter is
 * its message selector: records each delivery (the message's {@code region} as the body) in the
 * delivery's transaction. Bound to the adapter as {@link JmsFlaky} is.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "topic", propertyValue = JmsSubscriber.TOPIC),
    @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = JmsSubscriber.SUBSCRIPTION),
    @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
    @ActivationConfigProperty(propertyName = "messageSelector", propertyValue = "region = 'eu' AND JMSPriority = 4"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class JmsSubscriber implements MessageListener {

    static final String TOPIC = "jms_t";
    static final String SUBSCRIPTION = "eu";

    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(Message message) {
        JmsRecord.record(ds, TOPIC, message, JmsSelective.stringProperty(message, "region"));
    }
}
