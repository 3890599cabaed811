package io.sqlqueue.it.lifecycle.crash;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * For {@link io.sqlqueue.it.lifecycle.ServerCrashIT}: a message whose text is {@code halt} ends
 * the server's JVM on the spot ({@code Runtime.halt}: no shutdown hook, no rollback, like a kill
 * -9 or a bean exhausting the heap); any other is recorded in {@code crash_processed}, with the
 * attempt it was delivered at, inside the delivery transaction. One delivery thread, leasing
 * {@link CrashDatabase#LEASE_AHEAD} messages at a time: a crash charges those leased with the
 * message in delivery.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = CrashDatabase.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = CrashDatabase.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "3"),
    @ActivationConfigProperty(propertyName = "leaseTime", propertyValue = "2000"),
    @ActivationConfigProperty(propertyName = "leaseAhead", propertyValue = "" + CrashDatabase.LEASE_AHEAD),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "50"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "500")
})
public class HaltingBean implements QueueListener {

    @Resource(lookup = CrashDatabase.JNDI_NAME)
    private DataSource dataSource;

    @Override
    public void onMessage(QueueMessage message) {
        if (message.text().equals("halt")) {
            Runtime.getRuntime().halt(CrashDatabase.HALT_STATUS);
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO crash_processed (message_id, attempt) VALUES (?, ?)")) {
            ps.setLong(1, message.id());
            ps.setInt(2, message.attempt());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record message " + message.id() + ": " + e.getMessage(), e);
        }
    }
}
