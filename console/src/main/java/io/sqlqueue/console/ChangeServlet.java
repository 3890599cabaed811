package io.sqlqueue.console;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.logging.Logger;
import javax.management.ObjectName;

/**
 * The one place that changes dead letters: a POST with the session's CSRF token, naming a queue,
 * {@code action} ({@code requeue} or {@code delete}), and either ids ({@code id}, repeated) or a
 * group; or {@code action} {@code edit} with one {@code id}, {@code headers} ({@code name=value}
 * lines) and {@code body} (absent: the original's is kept). The acting user is the authenticated caller, whose name the adapter writes to its audit
 * table. Answers with a redirect to the queue's dead letters, where the outcome is shown once.
 */
@WebServlet("/change")
public class ChangeServlet extends ConsoleServlet {

    /** The action that requeues one dead letter edited, as a new message. */
    static final String EDIT = "edit";
    /** The field that says the edited body had no CR: the CR LF line breaks a browser sends become LF. */
    static final String LF_ONLY = "lfOnly";

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(ChangeServlet.class.getName());

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!CsrfToken.matches(request)) {
            refuse(response, HttpServletResponse.SC_FORBIDDEN, "The form's token does not match this session:"
                    + " reload the page and try again.");
            return;
        }
        String actor = request.getUserPrincipal() == null ? null : request.getUserPrincipal().getName();
        String action = request.getParameter("action");
        QueueBeans beans = beans();
        ObjectName queue;
        long[] ids;
        try {
            queue = beans.queue(request.getParameter("queue"));
            ids = ids(request.getParameterValues("id"));
            if (actor == null || !("requeue".equals(action) || "delete".equals(action) || EDIT.equals(action))) {
                throw new IllegalArgumentException("a change needs a signed-in user and an action, requeue, delete"
                        + " or edit");
            }
            if (EDIT.equals(action) && (ids.length != 1 || request.getParameter("headers") == null)) {
                throw new IllegalArgumentException("an edit names one id and has a headers field");
            }
        } catch (IllegalArgumentException e) {
            refuse(response, HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
            return;
        }
        QueueBeans.Group group = group(request);
        String outcome;
        try {
            if (EDIT.equals(action)) {
                outcome = edit(request, beans, queue, ids[0], actor);
            } else if (group != null) {
                int n = action.equals("requeue") ? beans.requeue(queue, group, actor) : beans.delete(queue, group, actor);
                outcome = (action.equals("requeue") ? "Requeued " : "Deleted ") + n + " dead letters of reason "
                        + orDash(group.reason()) + " · " + orDash(group.errorClass()) + ".";
            } else if (ids.length == 0) {
                outcome = "Nothing selected.";
            } else {
                int n = action.equals("requeue") ? beans.requeue(queue, ids, actor) : beans.delete(queue, ids, actor);
                outcome = (action.equals("requeue") ? "Requeued " : "Deleted ") + n + " of " + ids.length
                        + " selected dead letters."
                        + (n < ids.length ? " The others were gone already, or (requeue) their dedup key is queued." : "");
            }
            LOG.info(() -> actor + ": " + action + " on " + queue + ": " + (group != null ? group : Arrays.toString(ids)));
        } catch (ConsoleException e) {
            outcome = "Not done: " + e.getMessage();
        }
        request.getSession().setAttribute(NOTICE, outcome);
        response.sendRedirect("dead-letters?queue=" + encode(queue.getCanonicalName()));
    }

    private static String edit(HttpServletRequest request, QueueBeans beans, ObjectName queue, long id, String actor) {
        String body = request.getParameter("body");
        if (body != null && Boolean.parseBoolean(request.getParameter(LF_ONLY))) {
            body = body.replace("\r\n", "\n");
        }
        long newId = beans.requeueEdited(queue, id, body, request.getParameter("headers"), actor);
        return newId == 0 ? "No dead letter " + id + " (requeued or deleted since?): nothing edited."
                : "Requeued dead letter " + id + ", edited, as new message " + newId + ".";
    }

    private static long[] ids(String[] values) {
        if (values == null) {
            return new long[0];
        }
        try {
            return Arrays.stream(values).mapToLong(Long::parseLong).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("an id is a number: " + Arrays.toString(values));
        }
    }
}
