package io.sqlqueue.it.admin;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Records each order it receives. Its maxConcurrency is the admin's to set: 1 unless the domain
 * has sqlqueue.orders.maxConcurrency (the admin script sets 3). The dequeue and the record share
 * one local transaction on jdbc/orders. Bound to sqlqueue-adapter by WEB-INF/glassfish-ejb-jar.xml.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = OrderProcessor.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = OrderDesk.DS),
    @ActivationConfigProperty(propertyName = "maxConcurrency",
            propertyValue = "${MPCONFIG=sqlqueue.orders.maxConcurrency:1}"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "50"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "500")})
public class OrderProcessor implements QueueListener {

    static final String QUEUE = "admin_orders";
    static final AtomicInteger RUNNING = new AtomicInteger();
    static final AtomicInteger PEAK = new AtomicInteger();

    @Resource(lookup = OrderDesk.DS)
    private DataSource ds;

    @Override
    public void onMessage(QueueMessage message) {
        PEAK.accumulateAndGet(RUNNING.incrementAndGet(), Math::max);
        try (Connection c = ds.getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO admin_processed (id) VALUES (?)")) {
            insert.setString(1, message.text());
            insert.executeUpdate();
            Thread.sleep(10); // long enough for deliveries to overlap
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            RUNNING.decrementAndGet();
        }
    }
}
