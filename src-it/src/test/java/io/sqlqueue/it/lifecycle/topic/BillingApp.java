package io.sqlqueue.it.lifecycle.topic;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import javax.sql.DataSource;

/** The billing application: every message of the topic, through its durable subscription "billing". */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "topic", propertyValue = TopicDeliveries.TOPIC),
    @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "billing"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = BillingDatabase.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class BillingApp implements QueueListener {

    @Resource(lookup = BillingDatabase.JNDI_NAME)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        TopicDeliveries.record(ds, "billing", message);
    }
}
