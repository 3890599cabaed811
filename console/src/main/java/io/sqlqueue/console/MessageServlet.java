package io.sqlqueue.console;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * One dead letter: its row, headers, body (text, or hex for binary) and journal history, with
 * requeue, delete, and a form to requeue it edited as a new message. For a dead letter that was
 * requeued edited, the original as the edit's audit row keeps it: who edited it when, into which
 * message, its headers, body and history.
 */
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
        CompositeData edited = null;
        try {
            queue = beans.queue(request.getParameter("queue"));
            id = Long.parseLong(String.valueOf(request.getParameter("id")));
            m = beans.message(queue, id);
            if (m == null) {
                edited = beans.edited(queue, id);
            }
        } catch (IllegalArgumentException | ConsoleException e) {
            refuse(response, HttpServletResponse.SC_NOT_FOUND, e.getMessage());
            return;
        }
        if (edited != null) {
            send(response, editedPage(queue, id, edited));
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
        page.raw("</table>");
        contents(page, m);
        String csrf = CsrfToken.of(request.getSession());
        for (String action : new String[] {"requeue", "delete"}) {
            page.raw("<form class=\"inline\" method=\"post\" action=\"change\">").hidden(CsrfToken.FIELD, csrf)
                    .hidden("queue", queue.getCanonicalName()).hidden("id", id).hidden("action", action)
                    .raw("<button type=\"submit\">").text(action.equals("requeue") ? "Requeue" : "Delete")
                    .raw("</button></form>");
        }
        editForm(page, csrf, queue, id, body, (String) m.get("headerLines"));
        send(response, page);
    }

    /** The original of a dead letter requeued edited: the edit, then headers, body and history as they were. */
    private static Page editedPage(ObjectName queue, long id, CompositeData edited) {
        CompositeData edit = (CompositeData) edited.get("edit");
        Page page = page("Dead letter " + id + " of " + queue.getKeyProperty("name") + ", requeued edited");
        page.raw("<p><a href=\"dead-letters?queue=").text(encode(queue.getCanonicalName()))
                .raw("\">All dead letters of the queue</a></p><p>Edited by ").text(edit.get("actor")).raw(" at ")
                .text(when(edit.get("actedAt"))).raw(" and requeued as a new message (ids ").text(edit.get("messageIds"))
                .raw("). The original, as the audit row keeps it:</p>");
        if (edited.get("body") == null) {
            page.raw("<p>Not kept: this edit was made by a release that did not keep the original.</p>");
            return page;
        }
        contents(page, edited);
        return page;
    }

    /** Headers, body and journal history of {@code m}: a dead letter, or the original of an edited one. */
    private static void contents(Page page, CompositeData m) {
        byte[] body = (byte[]) m.get("body");
        page.raw("<h2>Headers</h2><pre>").text(orDash(m.get("headers"))).raw("</pre><h2>Body (")
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
    }

    /**
     * The form that requeues the dead letter as a new message with an edited body and headers. A
     * body that is not text, or too long for a text area, is kept as it is: only headers change.
     */
    private static void editForm(Page page, String csrf, ObjectName queue, long id, byte[] body, String headerLines) {
        String text = body.length <= Page.SHOWN_BODY_BYTES ? Page.utf8(body, body.length) : null;
        page.raw("<h2>Edit and requeue</h2><form method=\"post\" action=\"change\">").hidden(CsrfToken.FIELD, csrf)
                .hidden("queue", queue.getCanonicalName()).hidden("id", id).hidden("action", ChangeServlet.EDIT);
        if (text == null) {
            page.raw("<p>Binary body (or over ").text(Page.SHOWN_BODY_BYTES)
                    .raw(" bytes): not editable here; it is kept as it is.</p>");
        } else {
            // browsers send a text area's line breaks as CR LF: say whether the original had any CR
            page.hidden(ChangeServlet.LF_ONLY, text.indexOf('\r') < 0)
                    .raw("<p><label>Body<br><textarea name=\"body\" rows=\"12\" cols=\"100\">").text(text)
                    .raw("</textarea></label></p>");
        }
        page.raw("<p><label>Headers, one name=value a line<br><textarea name=\"headers\" rows=\"6\" cols=\"100\">")
                .text(headerLines).raw("</textarea></label></p><button type=\"submit\">Requeue as a new message</button>"
                        + " <small>The dead letter is replaced by a new message (new id, no dedup key); the audit"
                        + " row keeps both ids and the original's headers and body, shown here after the edit.</small></form>");
    }
}
