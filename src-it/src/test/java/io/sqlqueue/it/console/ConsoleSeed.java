package io.sqlqueue.it.console;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.QueueTable;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The console test's hands in the server (the H2 database lives there): {@code POST seed?bad=B&down=D}
 * sends that many messages through the engine for {@link FailingWhileToldBean} to dead-letter;
 * {@code POST seed?failing=false} lets it take them; {@code GET seed} answers what the tables show
 * in SQL, as {@code name=value} lines ({@code doneFixed}: the edited message, taken), the audit rows as
 * {@code audit=operation actor count ids|reason}, and each edit's kept original as
 * {@code editOriginal=ids body headers}.
 */
@WebServlet("/seed")
public class ConsoleSeed extends HttpServlet {

    static final String DS = "java:global/jdbc/console";
    static final String QUEUE = "console_q";
    /** The body the test gives the last dead letter before requeueing it as a new message. */
    static final String FIXED = "down order fixed";

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getParameter("failing") != null) {
            FailingWhileToldBean.FAILING.set(Boolean.parseBoolean(request.getParameter("failing")));
            return;
        }
        try (Connection c = dataSource().getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute(FailingWhileToldBean.CREATE_TABLE);
            }
            QueueTable queue = QueueTable.open(c, QUEUE);
            queue.createIfMissing(c);
            for (String kind : new String[] {"bad", "down"}) {
                for (int i = 0; i < Integer.parseInt(request.getParameter(kind)); i++) {
                    queue.send(c, OutgoingMessage.text(kind + " order " + i).header("customer", "c" + i).build());
                }
            }
        } catch (NamingException | SQLException e) {
            throw new IOException(e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder out = new StringBuilder();
        try (Connection c = dataSource().getConnection(); Statement s = c.createStatement()) {
            out.append("deadLetters=").append(count(s, "SELECT COUNT(*) FROM \"" + QUEUE + "_dlq\""))
                    .append("\nqueued=").append(count(s, "SELECT COUNT(*) FROM \"" + QUEUE + "\""))
                    .append("\ndone=").append(count(s, "SELECT COUNT(*) FROM console_done"))
                    .append("\ndoneFixed=").append(count(s, "SELECT COUNT(*) FROM console_done WHERE body = '"
                            + FIXED + "'"))
                    .append("\nbadDeadLetters=").append(count(s, "SELECT COUNT(*) FROM \"" + QUEUE + "_dlq\""
                            + " WHERE error_class = 'java.lang.IllegalArgumentException'"))
                    .append('\n');
            try {
                try (ResultSet rs = s.executeQuery("SELECT operation, actor, message_count, message_ids, error_class"
                        + " FROM \"sqlqueue_audit\" WHERE queue_name = '" + QUEUE + "' ORDER BY id")) {
                    while (rs.next()) {
                        out.append("audit=").append(rs.getString(1)).append(' ').append(rs.getString(2)).append(' ')
                                .append(rs.getInt(3)).append(' ')
                                .append(rs.getString(4) != null ? rs.getString(4) : rs.getString(5)).append('\n');
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT message_ids, original_body, original_headers FROM"
                        + " \"sqlqueue_audit\" WHERE queue_name = '" + QUEUE + "' AND operation = 'edit' ORDER BY id")) {
                    while (rs.next()) {
                        out.append("editOriginal=").append(rs.getString(1)).append(' ')
                                .append(new String(rs.getBytes(2), StandardCharsets.UTF_8)).append(' ')
                                .append(rs.getString(3)).append('\n');
                    }
                }
            } catch (SQLException e) {
                out.append("auditUnreadable=").append(e.getMessage()).append('\n'); // none before the first change
            }
        } catch (NamingException | SQLException e) {
            throw new IOException(e);
        }
        response.setContentType("text/plain");
        response.getWriter().print(out);
    }

    private static DataSource dataSource() throws NamingException {
        return InitialContext.doLookup(DS);
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
