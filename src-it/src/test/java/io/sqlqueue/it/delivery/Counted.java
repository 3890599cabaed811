package io.sqlqueue.it.delivery;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.util.List;
import javax.sql.DataSource;

/**
 * Fails every message whose text starts with "poison" while {@link #rejectPoison} is set,
 * twice, so it is dead-lettered; keeps a completion journal. For the management beans.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "counted_q"),
    @ActivationConfigProperty(propertyName = "journal", propertyValue = "true"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "100")})
public class Counted implements QueueListener {
    /** The test clears it to "fix the bug" before requeueing the dead letters. */
    static volatile boolean rejectPoison = true;

    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        if (message.text().startsWith("poison") && rejectPoison) {
            throw new IllegalArgumentException("not an order: " + message.text());
        }
        DeliveryBeans.record(ds, "counted_q", List.of(message));
    }
}
