package io.sqlqueue.it.batch;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Consumes {@link BatchRows#MDB_QUEUE}, recording each message in batch_rows in its delivery transaction. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = BatchRows.MDB_QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = BatchRows.DS),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
public class BatchConsumer implements QueueListener {
    @Resource(lookup = BatchRows.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO batch_rows (message_id, consumer, body) VALUES (?, 'mdb', ?)")) {
            ps.setLong(1, message.id());
            ps.setString(2, message.text());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
