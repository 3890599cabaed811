package io.sqlqueue.it.wildfly.app;

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
 * The message-driven bean of WildFlyAdminPathIT's application: records every message it is given
 * in admin_path_processed, in the delivery's transaction. Its maxConcurrency comes from
 * jboss-ejb3.xml, which reads the system property admin/wildfly.cli sets; the adapter it binds to
 * is named there too.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = AdminPathListener.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = AdminPathListener.DATA_SOURCE),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "50"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "500")
})
public class AdminPathListener implements QueueListener {

    public static final String QUEUE = "admin_path";
    /** The server data source admin/wildfly.cli creates. */
    public static final String DATA_SOURCE = "java:/jdbc/orders";

    @Resource(lookup = DATA_SOURCE)
    private DataSource dataSource;

    @Override
    public void onMessage(QueueMessage message) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO admin_path_processed (message_id, body) VALUES (?, ?)")) {
            ps.setLong(1, message.id());
            ps.setString(2, message.text());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record " + message + ": " + e.getMessage(), e);
        }
    }
}
