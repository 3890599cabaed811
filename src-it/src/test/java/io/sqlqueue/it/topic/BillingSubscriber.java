package io.sqlqueue.it.topic;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import javax.sql.DataSource;

/** Every message of the topic, through the durable subscription "billing". */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "topic", propertyValue = TopicIT.TOPIC),
    @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "billing"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = TopicIT.DS),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class BillingSubscriber implements QueueListener {

    @Resource(lookup = TopicIT.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        TopicBeans.record(ds, "billing", message);
    }
}
