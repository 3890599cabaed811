package io.sqlqueue.it.ear;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Deployed beside the sample, like {@link AdapterThreadsServlet}: after full garbage collections,
 * how many class loaders of the server still hold the class named by {@code ?class=} (from the
 * JVM's own {@code VM.classloaders} diagnostic command). The test servers run with
 * {@code -XX:SoftRefLRUPolicyMSPerMB=0}, so a loader counted here is strongly reachable.
 */
@WebServlet("/class-loaders")
public class ClassLoadersServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String className = request.getParameter("class");
        String listing;
        try {
            ObjectName diagnostics = new ObjectName("com.sun.management:type=DiagnosticCommand");
            for (int i = 0; i < 3; i++) {
                ManagementFactory.getPlatformMBeanServer().invoke(diagnostics, "gcRun", null, null);
            }
            listing = (String) ManagementFactory.getPlatformMBeanServer().invoke(diagnostics, "vmClassloaders",
                    new Object[] {new String[] {"show-classes=true"}}, new String[] {String[].class.getName()});
        } catch (JMException e) {
            throw new IOException(e);
        }
        int loaders = 0;
        for (String line : listing.split("\n")) {
            // a loader lists its classes one a line, the first after "Classes:"
            if (line.replaceFirst("^.*?(Classes:)?\\s+(\\S+)\\s*$", "$2").equals(className)) {
                loaders++;
            }
        }
        response.setContentType("text/plain");
        response.getWriter().write(Integer.toString(loaders));
    }
}
