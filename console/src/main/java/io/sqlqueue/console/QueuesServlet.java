package io.sqlqueue.console;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** The queue list: each queue's depth, in flight, dead letters and oldest age, linked to its dead letters. */
@WebServlet(urlPatterns = {"", "/queues"})
public class QueuesServlet extends ConsoleServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        List<QueueBeans.Queue> queues = beans().queues();
        Page page = new Page("Queues · SQL Queue").raw("<h1>Queues</h1>");
        if (queues.isEmpty()) {
            page.raw("<p>No queue has a consumer in this server: a queue is listed while a message-driven bean"
                    + " consumes it.</p>");
        } else {
            page.raw("<table><tr><th>Queue</th><th>Database</th><th>Ready</th><th>Delayed</th><th>In flight</th>"
                    + "<th>Dead letters</th><th>Oldest ready</th></tr>");
            for (QueueBeans.Queue q : queues) {
                page.raw("<tr><td><a href=\"dead-letters?queue=").text(encode(q.objectName())).raw("\">").text(q.name())
                        .raw("</a></td><td>").text(q.database()).raw("</td><td class=\"n\">").text(figure(q.ready()))
                        .raw("</td><td class=\"n\">").text(figure(q.delayed())).raw("</td><td class=\"n\">")
                        .text(figure(q.leased())).raw("</td><td class=\"n\">").text(figure(q.deadLettered()))
                        .raw("</td><td class=\"n\">").text(q.ready() < 0 ? "?" : age(q.oldestReadyAgeMillis()))
                        .raw("</td></tr>");
            }
            page.raw("</table><p>In flight: claimed under a lease that has not run out. -1 or ? : the database could"
                    + " not be read.</p>");
        }
        send(response, page);
    }

    private static String figure(long n) {
        return n < 0 ? "?" : Long.toString(n);
    }

    /** An age as an operator reads it: 0 s, 42 s, 3 min 5 s, 2 h 10 min. */
    static String age(long millis) {
        Duration d = Duration.ofMillis(Math.max(0, millis));
        if (d.toHours() > 0) {
            return d.toHours() + " h " + d.toMinutesPart() + " min";
        }
        if (d.toMinutes() > 0) {
            return d.toMinutes() + " min " + d.toSecondsPart() + " s";
        }
        return d.toSeconds() + " s";
    }
}
