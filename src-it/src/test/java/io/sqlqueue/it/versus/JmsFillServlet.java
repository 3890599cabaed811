package io.sqlqueue.it.versus;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code POST /vs-fill/fill?factory=<jndi name>&queue=<jndi name>&count=<n>}: fills the JMS queue with the numbers 0 to
 * n - 1 before the consumer is deployed, 1,000 per transaction, and answers {@code sent <n>}.
 */
@WebServlet("/fill")
public class JmsFillServlet extends HttpServlet {

    private static final int CHUNK = 1000;

    @EJB
    private JmsSender sender;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String factory = request.getParameter("factory");
        String queue = request.getParameter("queue");
        int count = Integer.parseInt(request.getParameter("count"));
        try {
            for (int from = 0; from < count; from += CHUNK) {
                sender.send(factory, queue, from, Math.min(CHUNK, count - from));
            }
        } catch (Exception e) {
            throw new IOException("could not fill " + queue, e);
        }
        response.setContentType("text/plain");
        response.getWriter().print("sent " + count);
    }
}
