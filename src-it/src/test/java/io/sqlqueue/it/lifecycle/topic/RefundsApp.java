package io.sqlqueue.it.lifecycle.topic;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import javax.sql.DataSource;

/** The refunds application: only the refunds, through its filtered durable subscription "refunds". */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "topic", propertyValue = TopicDeliveries.TOPIC),
    @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "refunds"),
    @ActivationConfigProperty(propertyName = "subscriptionFilter", propertyValue = "type IN ('refund', 'chargeback')"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = RefundsDatabase.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class RefundsApp implements QueueListener {

    @Resource(lookup = RefundsDatabase.JNDI_NAME)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        TopicDeliveries.record(ds, "refunds", message);
    }
}
