package io.sqlqueue.it.delivery;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.util.List;
import javax.sql.DataSource;

/** One delivery at a time, so the table shows the delivery order. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "ordered_q"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class Ordered implements QueueListener {
    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        DeliveryBeans.record(ds, "ordered_q", List.of(message));
    }
}
