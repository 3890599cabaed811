package io.sqlqueue.it.delivery;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import javax.sql.DataSource;

/**
 * A Jakarta Messaging bean on a durable subscription of a topic it names as JMS beans do:
 * {@code destinationLookup} naming a {@code Topic} administered object of the adapter
 * ({@link DeliveryIT}'s web.xml, for the topic {@value #TOPIC}), with {@code subscriptionName}.
 * Records each delivery (its body) in the delivery's transaction. Bound to the adapter as
 * {@link JmsFlaky} is.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = DeliveryBeans.LOOKUP_TOPIC),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
    @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = JmsLookedTopic.SUBSCRIPTION),
    @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class JmsLookedTopic implements MessageListener {

    /** The topic of the administered object. */
    static final String TOPIC = "lookup_t";
    static final String SUBSCRIPTION = "looked";

    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(Message message) {
        try {
            JmsRecord.record(ds, TOPIC, message, message.getBody(String.class));
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
