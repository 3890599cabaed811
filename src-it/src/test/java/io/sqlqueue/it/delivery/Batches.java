package io.sqlqueue.it.delivery;

import io.sqlqueue.api.BatchQueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.util.List;
import javax.sql.DataSource;

/** Up to 20 messages per call and per transaction. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "batch_q"),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "batchSize", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
public class Batches implements BatchQueueListener {
    @Resource(lookup = DeliveryBeans.DS)
    private DataSource ds;

    @Override
    public void onMessages(List<QueueMessage> messages) {
        DeliveryBeans.record(ds, "batch_q", messages);
    }
}
