package io.sqlqueue.it.delivery;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.util.List;
import javax.sql.DataSource;

/**
 * Fails the first delivery of every third message (its text starts with "flaky") after
 * recording it: the rollback takes the record back with the message, which comes again.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "flaky_q"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
public class Flaky implements QueueListener {
    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        DeliveryBeans.record(ds, "flaky_q", List.of(message));
        if (message.text().startsWith("flaky") && message.attempt() == 1) {
            throw new IllegalStateException("fails on its first delivery");
        }
    }
}
