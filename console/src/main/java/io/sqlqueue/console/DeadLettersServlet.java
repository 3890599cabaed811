package io.sqlqueue.console;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * A queue's dead letters: the groups by reason and exception class with counts, each with its
 * requeue and delete; beneath, a page of the dead letters (all, or one group's) with checkboxes
 * for a selection; and the queue's recent audit rows.
 */
@WebServlet("/dead-letters")
public class DeadLettersServlet extends ConsoleServlet {

    private static final long serialVersionUID = 1L;
    static final int PAGE_SIZE = 50;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        QueueBeans beans = beans();
        ObjectName queue;
        int offset;
        try {
            queue = beans.queue(request.getParameter("queue"));
            offset = Math.max(0, Integer.parseInt(request.getParameter("offset") == null ? "0" : request.getParameter("offset")));
        } catch (IllegalArgumentException e) {
            refuse(response, HttpServletResponse.SC_NOT_FOUND, e.getMessage());
            return;
        }
        QueueBeans.Group group = group(request);
        String csrf = CsrfToken.of(request.getSession());
        Page page = page("Dead letters of " + queue.getKeyProperty("name"));
        Object notice = request.getSession().getAttribute(NOTICE);
        if (notice != null) {
            request.getSession().removeAttribute(NOTICE);
            page.raw("<p class=\"notice\">").text(notice).raw("</p>");
        }
        String q = encode(queue.getCanonicalName());
        try {
            groups(page, beans.groups(queue), q, queue, csrf);
            list(page, beans.page(queue, group, offset, PAGE_SIZE), q, queue, group, offset, csrf);
            audit(page, queue, beans.audit(queue, 20));
        } catch (ConsoleException e) {
            page.raw("<p class=\"error\">").text(e.getMessage()).raw("</p>");
        }
        send(response, page);
    }

    private static void groups(Page page, CompositeData[] groups, String q, ObjectName queue, String csrf) {
        page.raw("<h2>By reason</h2>");
        if (groups.length == 0) {
            page.raw("<p>No dead letters.</p>");
            return;
        }
        page.raw("<table><tr><th>Reason</th><th>Exception class</th><th>Count</th><th>First failed</th>"
                + "<th>Last failed</th><th></th></tr>");
        for (CompositeData g : groups) {
            QueueBeans.Group group = new QueueBeans.Group((String) g.get("reason"), (String) g.get("errorClass"));
            page.raw("<tr><td>").text(orDash(group.reason())).raw("</td><td>").text(orDash(group.errorClass()))
                    .raw("</td><td class=\"n\">").text(g.get("count")).raw("</td><td>").text(when(g.get("firstFailedAt")))
                    .raw("</td><td>").text(when(g.get("lastFailedAt"))).raw("</td><td><a href=\"dead-letters?queue=")
                    .text(q + groupQuery(group)).raw("\">Show</a> ");
            for (String action : new String[] {"requeue", "delete"}) {
                page.raw("<form class=\"inline\" method=\"post\" action=\"change\">").hidden(CsrfToken.FIELD, csrf)
                        .hidden("queue", queue.getCanonicalName()).hidden("action", action);
                groupFields(page, group);
                page.raw("<button type=\"submit\">").text(action.equals("requeue") ? "Requeue all " : "Delete all ")
                        .text(g.get("count")).raw("</button></form>");
            }
            page.raw("</td></tr>");
        }
        page.raw("</table>");
    }

    private static void list(Page page, CompositeData[] rows, String q, ObjectName queue, QueueBeans.Group group,
            int offset, String csrf) {
        page.raw("<h2>").text(group == null ? "All dead letters" : "Dead letters of one reason").raw("</h2>");
        if (group != null) {
            page.raw("<p>").text(orDash(group.reason())).raw(" · ").text(orDash(group.errorClass()))
                    .raw(" · <a href=\"dead-letters?queue=").text(q).raw("\">all</a></p>");
        }
        page.raw("<form method=\"post\" action=\"change\">").hidden(CsrfToken.FIELD, csrf)
                .hidden("queue", queue.getCanonicalName())
                .raw("<table><tr><th></th><th>Id</th><th>Failed</th><th>Reason</th><th>Exception class</th>"
                        + "<th>Attempts</th><th>Enqueued</th></tr>");
        for (CompositeData r : rows) {
            page.raw("<tr><td><input type=\"checkbox\" name=\"id\" value=\"").text(r.get("id")).raw("\"></td>")
                    .raw("<td><a href=\"message?queue=").text(q).raw("&amp;id=").text(r.get("id")).raw("\">")
                    .text(r.get("id")).raw("</a></td><td>").text(when(r.get("failedAt"))).raw("</td><td>")
                    .text(orDash(r.get("reason"))).raw("</td><td>").text(orDash(r.get("errorClass")))
                    .raw("</td><td class=\"n\">").text(r.get("attempts")).raw("</td><td>").text(when(r.get("enqueuedAt")))
                    .raw("</td></tr>");
        }
        page.raw("</table><button type=\"submit\" name=\"action\" value=\"requeue\">Requeue selected</button>"
                + "<button type=\"submit\" name=\"action\" value=\"delete\">Delete selected</button></form><p>");
        if (offset > 0) {
            page.raw("<a href=\"dead-letters?queue=").text(q + groupQuery(group) + "&offset="
                    + Math.max(0, offset - PAGE_SIZE)).raw("\">Newer</a> ");
        }
        if (rows.length == PAGE_SIZE) {
            page.raw("<a href=\"dead-letters?queue=").text(q + groupQuery(group) + "&offset=" + (offset + PAGE_SIZE))
                    .raw("\">Older</a>");
        }
        page.raw("</p>");
    }

    private static void audit(Page page, ObjectName queue, CompositeData[] rows) {
        if (rows.length == 0) {
            return;
        }
        page.raw("<h2>Recent changes</h2><table><tr><th>When</th><th>Who</th><th>What</th><th>Messages</th>"
                + "<th>Which</th></tr>");
        for (CompositeData a : rows) {
            String ids = (String) a.get("messageIds");
            String which = ids != null ? "ids " + ids : a.get("criterion") != null ? (String) a.get("criterion")
                    : "reason " + orDash(a.get("reason")) + " · " + orDash(a.get("errorClass"));
            page.raw("<tr><td>").text(when(a.get("actedAt"))).raw("</td><td>").text(a.get("actor")).raw("</td><td>")
                    .text(a.get("operation")).raw("</td><td class=\"n\">").text(a.get("count")).raw("</td><td>")
                    .text(which);
            if ("edit".equals(a.get("operation")) && ids != null && ids.contains(" -> ")) {
                // an edit's ids are "<old> -> <new>": the message page of the old id shows the original
                page.raw(" <a href=\"message?queue=").text(encode(queue.getCanonicalName()) + "&id="
                        + ids.substring(0, ids.indexOf(" -> "))).raw("\">original</a>");
            }
            page.raw("</td></tr>");
        }
        page.raw("</table>");
    }
}
