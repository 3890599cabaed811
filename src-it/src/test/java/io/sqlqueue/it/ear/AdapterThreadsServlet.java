package io.sqlqueue.it.ear;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * Deployed beside the sample (its own WAR, which stays while the sample comes and goes): lists
 * the server's threads that are running the adapter's code, one name per line.
 */
@WebServlet("/adapter-threads")
public class AdapterThreadsServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder names = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            if (thread.getKey() == Thread.currentThread()) {
                continue; // this servlet is in an io.sqlqueue package too
            }
            for (StackTraceElement frame : thread.getValue()) {
                if (frame.getClassName().startsWith("io.sqlqueue.")) {
                    names.append(thread.getKey().getName()).append('\n');
                    break;
                }
            }
        }
        response.setContentType("text/plain");
        response.getWriter().write(names.toString());
    }
}
