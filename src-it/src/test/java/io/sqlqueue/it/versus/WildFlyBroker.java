package io.sqlqueue.it.versus;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.it.wildfly.WildFlyStandalone;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * WildFly standalone-full with its default broker, Artemis embedded in the server's JVM, as it
 * comes: its journal ASYNCIO (libaio, checked in the log at boot), syncing transactional writes
 * and persistent sends (journal-sync-transactional and -non-transactional are on by default),
 * sending through the pooled connection factory java:/JmsXA and receiving through the server's
 * activemq-ra. A server of its own ({@link WildFlyStandalone}: port offset {@value #PORT_OFFSET},
 * HTTP 11580, management 13490, -Xmx512m from standalone.conf, full JIT) on a copy of
 * standalone/ under the work directory, removed on close but for its server.log. Changed from the
 * defaults, so that 16 deliveries of either side can run at once: the MDB instance pool holds
 * {@value #MDB_POOL} beans instead of 4 per CPU (8 on 2 cores), and Artemis' global client thread
 * pool, which runs activemq-ra's deliveries and the in-VM connection's traffic, {@value
 * #CLIENT_THREADS} threads instead of 8 per CPU (16 on 2 cores; a reload). The JCA default work
 * manager, which runs the adapter's poller and deliveries, already has 50 short-running threads.
 * The PostgreSQL password reaches jboss-cli in a script file only its owner can read, deleted
 * once run (it stays in the copy's standalone-full.xml until close).
 */
final class WildFlyBroker implements BrokerServer {

    static final int PORT_OFFSET = 3500;
    static final int MDB_POOL = 64;
    static final int CLIENT_THREADS = 64;
    private static final Duration BOOT = Duration.ofMinutes(3);

    private final WildFlyStandalone server;
    private final Path work;

    private WildFlyBroker(WildFlyStandalone server, Path work) {
        this.server = server;
        this.work = work;
    }

    static WildFlyBroker start(Path wildfly, Settings settings) throws Exception {
        WildFlyBroker broker = new WildFlyBroker(WildFlyStandalone.start(wildfly, settings.work(), PORT_OFFSET, BOOT),
                settings.work());
        try {
            broker.checkJournal();
            broker.configure(settings);
            return broker;
        } catch (Exception | Error e) {
            broker.close();
            throw e;
        }
    }

    /** Artemis falls back to its NIO journal, saying so, when it cannot load libaio. */
    private void checkJournal() throws Exception {
        server.await("Artemis has chosen its journal", Duration.ofMinutes(1),
                () -> server.logContains("AMQ221012") || server.logContains("AMQ221013"));
        assertFalse(server.logContains("AMQ221013"), "Artemis uses its NIO journal, not ASYNCIO: libaio is missing"
                + " (Debian: apt-get install libaio1, or libaio1t64); see " + server.serverLog());
        assertTrue(server.logContains("AMQ221012"), "no AIO journal in " + server.serverLog());
    }

    private void configure(Settings settings) throws Exception {
        String credentials = " --user-name=\"" + settings.user() + "\" --password=\"" + settings.password() + "\""
                + " --max-pool-size=40";
        String script = String.join("\n",
                "/subsystem=ejb3/strict-max-bean-instance-pool=mdb-strict-max-pool:undefine-attribute(name=derive-size)",
                "/subsystem=ejb3/strict-max-bean-instance-pool=mdb-strict-max-pool:write-attribute(name=max-pool-size,"
                        + "value=" + MDB_POOL + ")",
                "/subsystem=messaging-activemq:write-attribute(name=global-client-thread-pool-max-size,value="
                        + CLIENT_THREADS + ")",
                "reload",
                "deploy " + settings.postgresDriver() + " --name=postgresql.jar",
                "data-source add --name=vs --jndi-name=java:/jdbc/vs --driver-name=postgresql.jar --jta=true"
                        + " --connection-url=\"" + settings.url() + "\"" + credentials,
                "xa-data-source add --name=vs-xa --jndi-name=java:/jdbc/vs-xa --driver-name=postgresql.jar"
                        + " --xa-datasource-class=org.postgresql.xa.PGXADataSource --xa-datasource-properties=ServerName="
                        + settings.host() + ",PortNumber=" + settings.port() + ",DatabaseName=" + settings.database()
                        + credentials,
                "jms-queue add --queue-address=vsQueue --entries=java:/jms/vsQueue",
                // the adapter as admin/wildfly.cli deploys it; inbound only, so no connection definition
                "deploy " + settings.rar() + " --name=sqlqueue-adapter.rar",
                "/subsystem=resource-adapters/resource-adapter=sqlqueue:add(archive=sqlqueue-adapter.rar,"
                        + " transaction-support=XATransaction)",
                "/subsystem=resource-adapters/resource-adapter=sqlqueue:activate",
                "deploy " + ConsumerArchive.writeFiller(work) + " --name=vs-fill.war",
                "");
        Path file = work.resolve("vs-setup.cli");
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(file, script);
            server.cli(cliLog(), "--file=" + file);
        } finally {
            Files.delete(file);
        }
    }

    private Path cliLog() {
        return work.resolve("wildfly-cli.log");
    }

    @Override
    public String name() {
        return "wildfly";
    }

    @Override
    public String broker() {
        return "artemis-asyncio";
    }

    @Override
    public String dataSource(boolean xa) {
        return xa ? "java:/jdbc/vs-xa" : "java:/jdbc/vs";
    }

    @Override
    public String jmsConnectionFactory() {
        return "java:/JmsXA";
    }

    @Override
    public String jmsQueue() {
        return "java:/jms/vsQueue";
    }

    /** activemq-ra runs at most maxSession deliveries of a bean at a time (15 by default). */
    @Override
    public Map<String, String> jmsConcurrency(int threads) {
        return Map.of("maxSession", Integer.toString(threads));
    }

    /** The adapter's bean bound to the standalone adapter, whose API classes it sees; the JMS bean needs nothing. */
    @Override
    public void addServerDescriptors(WebArchive consumer, String ejbName, Mode mode, int threads) {
        if (!mode.adapter()) {
            return;
        }
        consumer.addAsWebInfResource(new StringAsset("""
                <jboss-deployment-structure xmlns="urn:jboss:deployment-structure:1.2"><deployment><dependencies>
                <module name="deployment.sqlqueue-adapter.rar"/></dependencies></deployment></jboss-deployment-structure>
                """), "jboss-deployment-structure.xml");
        consumer.addAsWebInfResource(new StringAsset("""
                <jboss:ejb-jar xmlns:jboss="urn:jboss:domain:ejb3:1.2" xmlns="https://jakarta.ee/xml/ns/jakartaee"
                    xmlns:mdb="urn:resource-adapter-binding" version="4.0" impl-version="2.0">
                <assembly-descriptor><mdb:resource-adapter-binding><ejb-name>%s</ejb-name>
                <mdb:resource-adapter-name>sqlqueue</mdb:resource-adapter-name></mdb:resource-adapter-binding>
                </assembly-descriptor></jboss:ejb-jar>
                """.formatted(ejbName)), "jboss-ejb3.xml");
    }

    @Override
    public URI http() {
        return URI.create("http://127.0.0.1:" + server.httpPort() + "/");
    }

    /** Deployed under the given name, its runtime name the archive's (a WAR's type and context root). */
    @Override
    public void deploy(Path archive, String name) throws Exception {
        server.cli(cliLog(), "--command=deploy " + archive + " --name=" + name + " --runtime-name=" + archive.getFileName());
    }

    @Override
    public void undeploy(String name) throws Exception {
        server.cli(cliLog(), "--command=undeploy " + name);
    }

    /**
     * Shuts the server down (stops it if that fails), keeps its server.log and deletes its
     * directory. Says so if Artemis paged a queue to disk (an address holds 10 MB in memory by
     * default), which changes what its drains measured.
     */
    @Override
    public void close() throws Exception {
        try {
            server.shutdown(cliLog());
        } finally {
            server.close();
            Path log = work.resolve("wildfly-server.log");
            if (Files.exists(server.serverLog())) {
                Files.copy(server.serverLog(), log, StandardCopyOption.REPLACE_EXISTING);
                if (Files.readString(log, StandardCharsets.ISO_8859_1).contains("AMQ222038")) {
                    System.out.println("vs-jms: wildfly: Artemis paged messages to disk (AMQ222038), see " + log);
                }
            }
            WildFlyStandalone.deleteTree(server.base());
        }
    }
}
