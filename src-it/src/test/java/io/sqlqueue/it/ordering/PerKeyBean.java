package io.sqlqueue.it.ordering;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * Ordered delivery with 16 beans at once: records each delivery it commits in
 * {@code key_deliveries} with its start and end, rolls back the first delivery of every tenth
 * message, and counts the times a message arrived while another of its key was still in this bean.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = KeyOrderIT.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = KeyOrderIT.DS),
    @ActivationConfigProperty(propertyName = "orderedDelivery", propertyValue = "true"),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "16"),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "200")})
public class PerKeyBean implements QueueListener {

    static final Map<String, String> IN_FLIGHT = new ConcurrentHashMap<>();
    static final AtomicInteger OVERLAPS = new AtomicInteger();
    static final AtomicInteger ROLLBACKS = new AtomicInteger();

    @Resource(lookup = KeyOrderIT.DS)
    private DataSource ds;

    @Resource
    private MessageDrivenContext context;

    @Override
    public void onMessage(QueueMessage message) {
        String key = message.orderingKey();
        if (IN_FLIGHT.putIfAbsent(key, message.text()) != null) {
            OVERLAPS.incrementAndGet();
        }
        try {
            long started = micros();
            LockSupport.parkNanos(500_000); // the work
            if (message.id() % 10 == 3 && message.attempt() == 1) {
                ROLLBACKS.incrementAndGet();
                context.setRollbackOnly();
                return;
            }
            record(message, started, micros());
        } finally {
            IN_FLIGHT.remove(key); // before the commit: the next message of the key is claimed only after it
        }
    }

    private void record(QueueMessage m, long started, long ended) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("INSERT INTO key_deliveries"
                + " (message_id, ordering_key, idx, attempt, started_us, ended_us) VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setLong(1, m.id());
            ps.setString(2, m.orderingKey());
            ps.setInt(3, Integer.parseInt(m.text()));
            ps.setInt(4, m.attempt());
            ps.setLong(5, started);
            ps.setLong(6, ended);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
