package io.sqlqueue.it.admin;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.engine.QueueStats;
import io.sqlqueue.engine.QueueTable;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The application side of {@link PayaraAdminPathIT}: it uses only what the admin script created,
 * through {@code @Resource(lookup = ...)} of the server's JNDI names. Each call is one container
 * transaction (a singleton with container-managed concurrency: one call at a time, plenty here).
 */
@Singleton
@Startup
public class OrderDesk {

    static final String DS = "jdbc/orders";

    @Resource(lookup = "queue/orders")
    private QueueConnectionFactory orders;

    @Resource(lookup = "queue/orders-xa")
    private QueueConnectionFactory ordersXa;

    @Resource(lookup = "queue/orders-local")
    private QueueConnectionFactory ordersLocal;

    /** admin/payara-server.sh's JMS connection factory and queue (the table OrderProcessor consumes). */
    @Resource(lookup = "jms/ordersFactory")
    private ConnectionFactory jmsOrders;

    @Resource(lookup = "jms/orders")
    private Queue jmsQueue;

    @Resource(lookup = DS)
    private DataSource ds;

    @PostConstruct
    void tables() {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS admin_order (id VARCHAR(64) NOT NULL)");
            // no unique key: a message processed twice would show as a second row
            s.execute("CREATE TABLE IF NOT EXISTS admin_processed (id VARCHAR(64) NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Stores an order and queues it in one transaction. Through {@code queue/orders} (the pool on
     * jdbc/orders) the order row and the message share one local transaction; the XA and local
     * factories only send (a second non-XA resource could not join), and so does the JMS factory
     * (through jdbc/orders too, as a JMS application would send).
     */
    public void place(String factory, String id) throws SQLException {
        if (factory.equals("jms/ordersFactory")) {
            try (JMSContext jms = jmsOrders.createContext()) {
                jms.createProducer().send(jmsQueue, id);
            }
            return;
        }
        QueueConnectionFactory f = switch (factory) {
            case "queue/orders" -> orders;
            case "queue/orders-xa" -> ordersXa;
            case "queue/orders-local" -> ordersLocal;
            default -> throw new IllegalArgumentException(factory);
        };
        if (f == orders) {
            try (Connection c = ds.getConnection();
                    PreparedStatement insert = c.prepareStatement("INSERT INTO admin_order (id) VALUES (?)")) {
                insert.setString(1, id);
                insert.executeUpdate();
            }
        }
        try (QueueConnection q = f.getConnection()) {
            q.send(OrderProcessor.QUEUE, id);
        }
    }

    public String status() throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT (SELECT COUNT(*) FROM admin_processed),"
                        + " (SELECT COUNT(DISTINCT id) FROM admin_processed), (SELECT COUNT(*) FROM admin_order)")) {
            r.next();
            QueueStats queue = QueueTable.open(c, OrderProcessor.QUEUE).stats(c);
            return "processed=" + r.getLong(1) + " distinct=" + r.getLong(2) + " orders=" + r.getLong(3)
                    + " queued=" + (queue.ready() + queue.delayed() + queue.leased())
                    + " peakConcurrency=" + OrderProcessor.PEAK.get();
        }
    }
}
