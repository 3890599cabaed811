package io.sqlqueue.it.versus;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.MessageDriven;
import javax.sql.DataSource;

/**
 * The adapter's side: the same work, delivered by the adapter claiming through the same JDBC
 * resource ({@code dataSourceJndiName}), so the claim, the insert and the commit are one local
 * transaction. Activation properties come from each deployment's descriptors ({@link ConsumerArchive}).
 */
@MessageDriven
public class QueueWork implements QueueListener {

    @Resource(name = "jdbc/work")
    private DataSource work;

    @Override
    public void onMessage(QueueMessage message) {
        Work.record(work, message.text());
    }
}
