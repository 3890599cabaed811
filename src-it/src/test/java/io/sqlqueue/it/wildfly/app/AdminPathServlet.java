package io.sqlqueue.it.wildfly.app;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.engine.QueueStats;
import io.sqlqueue.engine.QueueTable;
import jakarta.annotation.Resource;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * WildFlyAdminPathIT's client side in the server. {@code POST /queue?count=N} (and {@code &via=jms}:
 * through the script's JMS connection factory and queue) sends N messages
 * ("message-1" ...) in one JTA transaction through the factory admin/wildfly.cli binds at
 * java:/queue/orders; {@code GET /queue} answers {@code processed=<rows> distinct=<distinct bodies>
 * queued=<messages left>} from the table the bean writes and the queue.
 */
@WebServlet("/queue")
public class AdminPathServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = "java:/queue/orders")
    private QueueConnectionFactory queues;

    /** admin/wildfly.cli's JMS connection factory and queue (the table AdminPathListener consumes). */
    @Resource(lookup = "java:/jms/ordersFactory")
    private ConnectionFactory jmsFactory;

    @Resource(lookup = "java:/jms/orders")
    private Queue jmsQueue;

    @Resource(lookup = AdminPathListener.DATA_SOURCE)
    private DataSource dataSource;

    @Resource
    private UserTransaction transaction;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int count = Integer.parseInt(request.getParameter("count"));
        try {
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS admin_path_processed (message_id BIGINT NOT NULL,"
                        + " body VARCHAR(100) NOT NULL)");
                // the bean's activation makes the queue on its poller's first turn, which a request
                // right after the deployment can come before ("Table admin_path not found")
                QueueTable.open(c, AdminPathListener.QUEUE).createIfMissing(c);
            }
            transaction.begin();
            try {
                send(count, "jms".equals(request.getParameter("via")));
            } catch (RuntimeException e) {
                transaction.rollback();
                throw e;
            }
            transaction.commit();
        } catch (Exception e) {
            throw new IOException("sending " + count + " messages failed: " + e, e);
        }
        response.setContentType("text/plain");
        response.getWriter().print("sent=" + count);
    }

    private void send(int count, boolean viaJms) {
        if (viaJms) {
            try (JMSContext jms = jmsFactory.createContext()) {
                for (int i = 1; i <= count; i++) {
                    jms.createProducer().send(jmsQueue, "jms-message-" + i);
                }
            }
        } else {
            try (QueueConnection queue = queues.getConnection()) {
                for (int i = 1; i <= count; i++) {
                    queue.send(AdminPathListener.QUEUE, "message-" + i);
                }
            }
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT body) FROM admin_path_processed")) {
            rs.next();
            QueueStats queue = QueueTable.open(c, AdminPathListener.QUEUE).stats(c);
            response.setContentType("text/plain");
            response.getWriter().print("processed=" + rs.getLong(1) + " distinct=" + rs.getLong(2)
                    + " queued=" + (queue.ready() + queue.delayed() + queue.leased()));
        } catch (SQLException e) {
            throw new IOException(e);
        }
    }
}
