package io.sqlqueue.it.versus;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A full application server with its own JMS broker, set up for the comparison: the adapter
 * deployed, JDBC resources (one plain, one XA) on the benchmark's PostgreSQL, one JMS queue, and
 * the filler application ({@link JmsFillServlet}) at {@code /vs-fill}. Closing it stops and
 * removes the server and everything it wrote.
 */
interface BrokerServer extends AutoCloseable {

    /** The server's name in the BENCH lines: payara-server or wildfly. */
    String name();

    /** How its broker persists, for the BENCH lines: e.g. openmq-file-sync, artemis-asyncio. */
    String broker();

    /** The JNDI name of the application's JDBC resource on the benchmark's PostgreSQL. */
    String dataSource(boolean xa);

    /** The JNDI name of a JMS connection factory that sends in the caller's JTA transaction. */
    String jmsConnectionFactory();

    /** The JNDI name of the benchmark's JMS queue. */
    String jmsQueue();

    /** The JMS bean's activation properties, beyond its destination, for this many deliveries at a time. */
    Map<String, String> jmsConcurrency(int threads);

    /** Adds the server's own descriptors for the consumer bean: its pool, the adapter's binding. */
    void addServerDescriptors(WebArchive consumer, String ejbName, Mode mode, int threads);

    /** The base address of its HTTP listener, e.g. http://127.0.0.1:27080/. */
    URI http();

    void deploy(Path archive, String name) throws Exception;

    void undeploy(String name) throws Exception;

    @Override
    void close() throws Exception;
}
