package io.sqlqueue.it.batch;

import io.sqlqueue.api.QueueMessage;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;

/**
 * Records the messages the drain job reads into batch_rows, in the chunk's transaction, and fails
 * the chunk holding the message whose text is the batch property {@code failAt} (when set).
 */
public class RowWriter extends AbstractItemWriter {

    @Inject
    @BatchProperty
    String failAt;

    @Override
    public void writeItems(List<Object> items) throws Exception {
        try (Connection c = BatchRows.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO batch_rows (message_id, consumer, body) VALUES (?, 'reader', ?)")) {
            for (Object item : items) {
                QueueMessage m = (QueueMessage) item;
                ps.setLong(1, m.id());
                ps.setString(2, m.text());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        for (Object item : items) {
            if (failAt != null && !failAt.isEmpty() && ((QueueMessage) item).text().equals(failAt)) {
                throw new IllegalStateException("the test fails the chunk holding " + failAt);
            }
        }
    }
}
