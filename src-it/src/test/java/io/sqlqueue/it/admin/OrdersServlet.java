package io.sqlqueue.it.admin;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;

/**
 * {@code POST /orders/place?factory=queue/orders&prefix=a&count=100} places orders a0..a99, each in
 * its own transaction; {@code GET /orders/status} reports the tables' counts.
 */
@WebServlet(urlPatterns = {"/place", "/status"})
public class OrdersServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    private OrderDesk desk;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String factory = req.getParameter("factory");
        String prefix = req.getParameter("prefix");
        int count = Integer.parseInt(req.getParameter("count"));
        try {
            for (int i = 0; i < count; i++) {
                desk.place(factory, prefix + i);
            }
        } catch (SQLException e) {
            throw new IOException(e);
        }
        resp.setContentType("text/plain");
        resp.getWriter().print("placed " + count);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        try {
            resp.getWriter().print(desk.status());
        } catch (SQLException e) {
            throw new IOException(e);
        }
    }
}
