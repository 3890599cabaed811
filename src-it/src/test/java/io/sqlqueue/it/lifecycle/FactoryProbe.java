package io.sqlqueue.it.lifecycle;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.engine.QueueTable;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import javax.naming.InitialContext;
import javax.sql.DataSource;

/**
 * LifecycleIT's sender through a connection factory of its own ({@link #FACTORY}, declared in the
 * WAR's web.xml with the adapter's own jdbcUrl connections to the sample's database, behind the
 * test's forwarder): {@code POST send} sends one message to {@link #QUEUE} and answers 200, or 500
 * with the failure; {@code POST send?create=<data source>} creates the queue first through that
 * data source (the sample's: this WAR holds no sample class). Nothing consumes the queue.
 * The sample itself cannot show a factory's failure: it stores each order before sending, so a
 * database away fails the store first.
 */
@WebServlet("/send")
public class FactoryProbe extends HttpServlet {

    static final String FACTORY = "java:app/queue/probe";
    static final String QUEUE = "factory_probe";

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            String create = request.getParameter("create");
            if (create != null) {
                DataSource sample = InitialContext.doLookup(create);
                try (Connection c = sample.getConnection()) {
                    QueueTable.open(c, QUEUE).createIfMissing(c);
                }
            }
            QueueConnectionFactory factory = InitialContext.doLookup(FACTORY);
            try (QueueConnection queue = factory.getConnection()) {
                queue.send(QUEUE, "probe");
            }
        } catch (Exception e) { // the failure is the answer: the test reads it
            response.sendError(500, String.valueOf(e));
        }
    }
}
