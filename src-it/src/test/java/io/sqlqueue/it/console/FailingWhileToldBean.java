package io.sqlqueue.it.console;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * The console test's consumer: while {@link #FAILING}, a body starting "bad" fails with an
 * IllegalArgumentException and any other with an IllegalStateException, on its only attempt, so
 * the messages land in two groups of dead letters; afterwards each is recorded as done.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = ConsoleSeed.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = ConsoleSeed.DS),
    @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "journal", propertyValue = "true"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "100")})
public class FailingWhileToldBean implements QueueListener {

    static final AtomicBoolean FAILING = new AtomicBoolean(true);
    static final String CREATE_TABLE = "CREATE TABLE IF NOT EXISTS console_done (message_id BIGINT PRIMARY KEY,"
            + " body VARCHAR(100))";

    @Resource(lookup = ConsoleSeed.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        if (FAILING.get()) {
            if (message.text().startsWith("bad")) {
                throw new IllegalArgumentException("not an order: " + message.text().substring(0, 3));
            }
            throw new IllegalStateException("warehouse down");
        }
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO console_done VALUES (?, ?)")) {
            ps.setLong(1, message.id());
            ps.setString(2, message.text());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
