package io.sqlqueue.it.topic;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import javax.sql.DataSource;

/** Only the refunds, through the filtered durable subscription "refunds". */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "topic", propertyValue = TopicIT.TOPIC),
    @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "refunds"),
    @ActivationConfigProperty(propertyName = "subscriptionFilter", propertyValue = "type = 'refund'"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = TopicIT.DS),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class RefundSubscriber implements QueueListener {

    @Resource(lookup = TopicIT.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        TopicBeans.record(ds, "refunds", message);
    }
}
