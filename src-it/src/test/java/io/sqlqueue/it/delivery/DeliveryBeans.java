package io.sqlqueue.it.delivery;

import io.sqlqueue.api.BatchQueueListener;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * Message-driven beans of each kind, recording what they receive in the table {@code deliveries}
 * of the JDBC resource {@link #DS} (declared in the test's web.xml, for the database of the run).
 */
final class DeliveryBeans {

    static final String DS = "java:global/jdbc/delivery";

    private DeliveryBeans() {
    }

    static void record(DataSource ds, String queue, List<QueueMessage> messages) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO deliveries (queue_name, message_id, body, attempt, batch_size) VALUES (?, ?, ?, ?, ?)")) {
            for (QueueMessage m : messages) {
                ps.setString(1, queue);
                ps.setLong(2, m.id());
                ps.setString(3, m.text());
                ps.setInt(4, m.attempt());
                ps.setInt(5, messages.size());
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Up to 20 messages per call and per transaction. */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "batch_q"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "batchSize", propertyValue = "20"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
    public static class Batches implements BatchQueueListener {
        @Resource(lookup = DS)
        private DataSource ds;

        @Override
        public void onMessages(List<QueueMessage> messages) {
            record(ds, "batch_q", messages);
        }
    }

    /**
     * Fails the first delivery of every third message (its text starts with "flaky") after
     * recording it: the rollback takes the record back with the message, which comes again.
     */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "flaky_q"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
        @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
    public static class Flaky implements QueueListener {
        @Resource(lookup = DS)
        private DataSource ds;

        @Override
        public void onMessage(QueueMessage message) {
            record(ds, "flaky_q", List.of(message));
            if (message.text().startsWith("flaky") && message.attempt() == 1) {
                throw new IllegalStateException("fails on its first delivery");
            }
        }
    }

    /**
     * Fails every message whose text starts with "poison" while {@link #rejectPoison} is set,
     * twice, so it is dead-lettered; keeps a completion journal. For the management beans.
     */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "counted_q"),
        @ActivationConfigProperty(propertyName = "journal", propertyValue = "true"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
        @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "100")})
    public static class Counted implements QueueListener {
        /** The test clears it to "fix the bug" before requeueing the dead letters. */
        static volatile boolean rejectPoison = true;

        @Resource(lookup = DS)
        private DataSource ds;

        @Override
        public void onMessage(QueueMessage message) {
            if (message.text().startsWith("poison") && rejectPoison) {
                throw new IllegalArgumentException("not an order: " + message.text());
            }
            record(ds, "counted_q", List.of(message));
        }
    }

    /** No container transaction: messages are leased, acknowledged on return, retried on a throw. */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "leased_q"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public static class Leased implements QueueListener {
        @Resource(lookup = DS)
        private DataSource ds;

        @Override
        public void onMessage(QueueMessage message) {
            if (message.text().startsWith("flaky") && message.attempt() == 1) {
                throw new IllegalStateException("fails on its first delivery");
            }
            record(ds, "leased_q", List.of(message));
        }
    }

    /** Polls rarely: only the wake-up of a committed local enqueue brings messages quickly. */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "wake_q"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "10000"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "60000")})
    public static class Woken implements QueueListener {
        @Resource(lookup = DS)
        private DataSource ds;

        @Override
        public void onMessage(QueueMessage message) {
            record(ds, "wake_q", List.of(message));
        }
    }

    /**
     * Sends through the adapter's connection factory (declared in the test's web.xml), whose
     * commit wakes the queue's pollers.
     */
    @Stateless
    public static class WakeSender {
        static final String FACTORY = "java:app/queue/wake";

        @Resource(lookup = FACTORY)
        private QueueConnectionFactory queues;

        public void send(String text) {
            try (QueueConnection c = queues.getConnection()) {
                c.send("wake_q", text);
            }
        }
    }

    /** One delivery at a time, so the table shows the delivery order. */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "ordered_q"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1"),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
    public static class Ordered implements QueueListener {
        @Resource(lookup = DS)
        private DataSource ds;

        @Override
        public void onMessage(QueueMessage message) {
            record(ds, "ordered_q", List.of(message));
        }
    }
}
