package io.sqlqueue.console;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/** One dead letter: its row, headers, body (text, or hex for binary) and journal history, with requeue and delete. */
@WebServlet("/message")
public class MessageServlet extends ConsoleServlet {

    private static final long serialVersionUID = 1L;

    private static final String[] ROW = {"id", "priority", "enqueuedAt", "failedAt", "attempts", "dedupKey",
        "orderingKey", "reason", "errorClass"};
    private static final String[] HISTORY = {"completedAt", "outcome", "attempts", "claimedAt", "consumer", "traceId"};

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        QueueBeans beans = beans();
        ObjectName queue;
        long id;
        CompositeData m;
        try {
            queue = beans.queue(request.getParameter("queue"));
            id = Long.parseLong(String.valueOf(request.getParameter("id")));
            m = beans.message(queue, id);
        } catch (IllegalArgumentException | ConsoleException e) {
            refuse(response, HttpServletResponse.SC_NOT_FOUND, e.getMessage());
            return;
        }
        if (m == null) {
            refuse(response, HttpServletResponse.SC_NOT_FOUND, "no dead letter " + id + " (requeued or deleted since?)");
            return;
        }
        Page page = page("Dead letter " + id + " of " + queue.getKeyProperty("name"));
        page.raw("<p><a href=\"dead-letters?queue=").text(encode(queue.getCanonicalName()))
                .raw("\">All dead letters of the queue</a></p><table>");
        for (String item : ROW) {
            Object value = item.endsWith("At") ? when(m.get(item)) : orDash(m.get(item));
            page.raw("<tr><th>").text(item).raw("</th><td>").text(value).raw("</td></tr>");
        }
        byte[] body = (byte[]) m.get("body");
        page.raw("</table><h2>Headers</h2><pre>").text(orDash(m.get("headers"))).raw("</pre><h2>Body (")
                .text(body.length).raw(" bytes)</h2><pre>").text(Page.body(body)).raw("</pre><h2>History</h2>");
        CompositeData[] history = (CompositeData[]) m.get("history");
        if (history.length == 0) {
            page.raw("<p>No journal rows: the queue has no completion journal (activation property journal=true),"
                    + " or none for this id.</p>");
        } else {
            page.raw("<table><tr>");
            for (String item : HISTORY) {
                page.raw("<th>").text(item).raw("</th>");
            }
            page.raw("</tr>");
            for (CompositeData h : history) {
                page.raw("<tr>");
                for (String item : HISTORY) {
                    page.raw("<td>").text(item.endsWith("At") ? when(h.get(item)) : orDash(h.get(item))).raw("</td>");
                }
                page.raw("</tr>");
            }
            page.raw("</table>");
        }
        String csrf = CsrfToken.of(request.getSession());
        for (String action : new String[] {"requeue", "delete"}) {
            page.raw("<form class=\"inline\" method=\"post\" action=\"change\">").hidden(CsrfToken.FIELD, csrf)
                    .hidden("queue", queue.getCanonicalName()).hidden("id", id).hidden("action", action)
                    .raw("<button type=\"submit\">").text(action.equals("requeue") ? "Requeue" : "Delete")
                    .raw("</button></form>");
        }
        send(response, page);
    }
}
