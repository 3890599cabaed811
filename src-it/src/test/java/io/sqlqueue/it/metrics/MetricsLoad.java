package io.sqlqueue.it.metrics;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.engine.QueueTable;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The test's hands in the server: {@code POST load?fine=F&poison=P&delayed=D} sends that many
 * messages one by one through the adapter's connection factory (poison ones fail, delayed ones wait
 * an hour); {@code GET load} answers what the tables show, as {@code name=value} lines.
 */
@WebServlet("/load")
public class MetricsLoad extends HttpServlet {

    static final String DS = "java:global/jdbc/metrics";
    static final String FACTORY = "java:app/queue/metrics";
    static final String QUEUE = "metrics_q";

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            DataSource ds = InitialContext.doLookup(DS);
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.execute(PoisonRefusingBean.CREATE_TABLE);
                QueueTable.open(c, QUEUE).createIfMissing(c); // the activation creates it too
            }
            QueueConnectionFactory queues = InitialContext.doLookup(FACTORY);
            try (QueueConnection c = queues.getConnection()) {
                send(c, "fine", Integer.parseInt(request.getParameter("fine")), Duration.ZERO);
                send(c, "poison", Integer.parseInt(request.getParameter("poison")), Duration.ZERO);
                send(c, "later", Integer.parseInt(request.getParameter("delayed")), Duration.ofHours(1));
            }
        } catch (NamingException | SQLException e) {
            throw new IOException(e);
        }
    }

    private static void send(QueueConnection c, String kind, int count, Duration delay) {
        for (int i = 0; i < count; i++) {
            c.send(QUEUE, OutgoingMessage.text(kind + " " + i).delay(delay).build());
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            DataSource ds = InitialContext.doLookup(DS);
            response.setContentType("text/plain");
            response.getWriter().print("delivered=" + count(ds, "SELECT COUNT(*) FROM metrics_deliveries")
                    + "\ndeadLetters=" + count(ds, "SELECT COUNT(*) FROM \"" + QUEUE + "_dlq\"")
                    + "\nqueued=" + count(ds, "SELECT COUNT(*) FROM \"" + QUEUE + "\"") + "\n");
        } catch (NamingException | SQLException e) {
            throw new IOException(e);
        }
    }

    private static long count(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
