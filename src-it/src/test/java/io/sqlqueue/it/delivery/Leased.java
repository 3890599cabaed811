package io.sqlqueue.it.delivery;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.List;
import javax.sql.DataSource;

/** No container transaction: messages are leased, acknowledged on return, retried on a throw. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "leased_q"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Leased implements QueueListener {
    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        if (message.text().startsWith("flaky") && message.attempt() == 1) {
            throw new IllegalStateException("fails on its first delivery");
        }
        DeliveryBeans.record(ds, "leased_q", List.of(message));
    }
}
