package io.sqlqueue.console;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * What the console's pages share: the queue beans, the group a request names, links, and the
 * answer to a bad request. Access is the container's: web.xml lets only the role
 * {@value #ROLE} in.
 */
abstract class ConsoleServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** The role web.xml requires; a server maps its users or groups to it. */
    static final String ROLE = "sqlqueue-admin";

    /** The operators' flash message after a change, shown once by the next page. */
    static final String NOTICE = "io.sqlqueue.console.notice";

    final QueueBeans beans() {
        return new QueueBeans(ManagementFactory.getPlatformMBeanServer());
    }

    /**
     * The group the request names: parameter {@code group} set, and {@code reason} and
     * {@code errorClass} each absent for null; null when it names none (the whole table).
     */
    static QueueBeans.Group group(HttpServletRequest request) {
        return request.getParameter("group") == null ? null
                : new QueueBeans.Group(request.getParameter("reason"), request.getParameter("errorClass"));
    }

    /** The query parameters that name {@code group}, each starting with {@code &}. */
    static String groupQuery(QueueBeans.Group group) {
        if (group == null) {
            return "";
        }
        return "&group=1" + (group.reason() == null ? "" : "&reason=" + encode(group.reason()))
                + (group.errorClass() == null ? "" : "&errorClass=" + encode(group.errorClass()));
    }

    /** The hidden fields that name {@code group} in a form. */
    static void groupFields(Page page, QueueBeans.Group group) {
        page.hidden("group", "1");
        if (group.reason() != null) {
            page.hidden("reason", group.reason());
        }
        if (group.errorClass() != null) {
            page.hidden("errorClass", group.errorClass());
        }
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    static void send(HttpServletResponse response, Page page) throws IOException {
        response.setContentType("text/html;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
        response.setHeader("X-Frame-Options", "DENY");
        response.getWriter().write(page.finish());
    }

    /** A page saying what is wrong, with {@code status}. */
    static void refuse(HttpServletResponse response, int status, String why) throws IOException {
        response.setStatus(status);
        send(response, new Page("SQL Queue console").raw("<p class=\"error\">").text(why)
                .raw("</p><p><a href=\"queues\">Queues</a></p>"));
    }

    /** A page's heading with the way back to the queue list. */
    static Page page(String title) {
        return new Page(title + " · SQL Queue").raw("<p><a href=\"queues\">Queues</a></p><h1>").text(title).raw("</h1>");
    }

    /** An ISO-8601 instant from the adapter as an operator reads it: to the second, in UTC. */
    static String when(Object instant) {
        if (instant == null) {
            return "—";
        }
        String s = String.valueOf(instant);
        return s.length() >= 19 && s.charAt(10) == 'T' ? s.substring(0, 10) + " " + s.substring(11, 19) + " UTC" : s;
    }

    static String orDash(Object value) {
        return value == null ? "—" : String.valueOf(value);
    }
}
