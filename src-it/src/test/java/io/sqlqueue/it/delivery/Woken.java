package io.sqlqueue.it.delivery;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.util.List;
import javax.sql.DataSource;

/** Polls rarely: only the wake-up of a committed local enqueue brings messages quickly. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "wake_q"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "10000"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "60000")})
public class Woken implements QueueListener {
    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        DeliveryBeans.record(ds, "wake_q", List.of(message));
    }
}
