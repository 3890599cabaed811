package io.sqlqueue.management;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXPrincipal;
import javax.management.remote.JMXServiceURL;
import javax.security.auth.Subject;
import org.junit.jupiter.api.Test;

/**
 * The name a JMX operation's audit row gets: through a JMX connector that authenticates, the
 * caller's principal, as the connector server runs the call as its subject; in process, "jmx".
 */
class JmxCallerTest {

    /** A bean whose one attribute is {@link JmxCaller#name()} as seen inside the call. */
    public interface CallerMXBean {
        String getCaller();
    }

    public static final class Caller implements CallerMXBean {
        @Override
        public String getCaller() {
            return JmxCaller.name();
        }
    }

    @Test
    void aRemoteCallerIsNamedByItsPrincipalAndAnInProcessOneIsJmx() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("io.sqlqueue.test:type=Caller");
        server.registerMBean(new Caller(), name);
        JMXAuthenticator carolOnly = credentials -> {
            String[] userAndPassword = (String[]) credentials;
            if (!"carol".equals(userAndPassword[0]) || !"secret".equals(userAndPassword[1])) {
                throw new SecurityException("wrong credentials");
            }
            Subject subject = new Subject();
            subject.getPrincipals().add(new JMXPrincipal("carol"));
            return subject;
        };
        // no port and no registry: the client finds the server by the stub the address carries
        JMXConnectorServer connectorServer = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), Map.of(JMXConnectorServer.AUTHENTICATOR, carolOnly),
                server);
        connectorServer.start();
        try (JMXConnector client = JMXConnectorFactory.connect(connectorServer.getAddress(),
                Map.of(JMXConnector.CREDENTIALS, new String[] {"carol", "secret"}))) {
            MBeanServerConnection remote = client.getMBeanServerConnection();
            assertEquals("carol", remote.getAttribute(name, "Caller"));
            assertEquals("jmx", server.getAttribute(name, "Caller"), "in process: no principal");
        } finally {
            connectorServer.stop();
            server.unregisterMBean(name);
        }
    }
}
