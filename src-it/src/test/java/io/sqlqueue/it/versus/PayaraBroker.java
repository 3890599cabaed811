package io.sqlqueue.it.versus;

import io.sqlqueue.it.admin.PayaraDomain;
import io.sqlqueue.it.harness.Await;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Payara Server with its default broker, OpenMQ embedded in the server's JVM, its file store
 * syncing every write to disk ({@code imq.persist.file.sync.enabled}); a domain of its own
 * ({@value #DOMAIN}, ports from {@value #PORT_BASE}) made by asadmin and removed on close. The
 * PostgreSQL password reaches the pools through a password alias, not a command line.
 */
final class PayaraBroker implements BrokerServer {

    static final String DOMAIN = "sqlqueue-vs-jms";
    static final int PORT_BASE = 28000;

    private static final String JMS_SERVICE = """
            <jms-service type="EMBEDDED" default-jms-host="default_JMS_host" addresslist-behavior="priority">
              <jms-host name="default_JMS_host" host="127.0.0.1" port="${JMS_PROVIDER_PORT}" admin-user-name="admin" \
            admin-password="admin" lazy-init="false"/>
              <property name="imq.persist.file.sync.enabled" value="true"/>
              <property name="imq.hostname" value="127.0.0.1"/>
            </jms-service>""";

    private final PayaraDomain domain;

    private PayaraBroker(PayaraDomain domain) {
        this.domain = domain;
    }

    static PayaraBroker start(Path payara, Settings settings) throws Exception {
        PayaraDomain domain = new PayaraDomain(payara, DOMAIN, PORT_BASE, settings.work(), JMS_SERVICE);
        PayaraBroker server = new PayaraBroker(domain);
        try {
            domain.create();
            Files.copy(settings.postgresDriver(), domain.directory().resolve("lib").resolve("postgresql.jar"),
                    StandardCopyOption.REPLACE_EXISTING);
            domain.start();
            // lazy-init="false": the broker starts with the server and logs its store's setting
            Path brokerLog = server.brokerLog();
            Await.until("OpenMQ's log saying it syncs its writes (" + brokerLog + ")", Duration.ofMinutes(2),
                    () -> Files.exists(brokerLog) && Files.readString(brokerLog).contains("sync writes to disk = true"));
            Path passwords = settings.work().resolve("vs-passwords");
            Files.writeString(passwords, "AS_ADMIN_ALIASPASSWORD=" + settings.password() + "\n");
            Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-------"));
            try {
                server.asadmin("--passwordfile", passwords.toString(), "create-password-alias", "vs-db");
            } finally {
                Files.delete(passwords);
            }
            String properties = "serverName=" + settings.host() + ":portNumber=" + settings.port() + ":databaseName="
                    + settings.database() + ":user=" + settings.user() + ":password=${ALIAS=vs-db}";
            server.asadmin("create-jdbc-connection-pool", "--datasourceclassname", "org.postgresql.ds.PGSimpleDataSource",
                    "--restype", "javax.sql.DataSource", "--maxpoolsize", "40", "--property", properties, "vs-pool");
            server.asadmin("create-jdbc-resource", "--connectionpoolid", "vs-pool", "jdbc/vs");
            server.asadmin("create-jdbc-connection-pool", "--datasourceclassname", "org.postgresql.xa.PGXADataSource",
                    "--restype", "javax.sql.XADataSource", "--maxpoolsize", "40", "--property", properties, "vs-xa-pool");
            server.asadmin("create-jdbc-resource", "--connectionpoolid", "vs-xa-pool", "jdbc/vs-xa");
            server.asadmin("create-jms-resource", "--restype", "jakarta.jms.ConnectionFactory", "jms/vsFactory");
            server.asadmin("create-jms-resource", "--restype", "jakarta.jms.Queue", "--property", "Name=vsQueue",
                    "jms/vsQueue");
            server.asadmin("deploy", "--name", "sqlqueue-adapter", settings.rar().toString());
            server.asadmin("deploy", "--contextroot", "/vs-fill", "--name", "vs-fill",
                    ConsumerArchive.writeFiller(settings.work()).toString());
            return server;
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    private Path brokerLog() {
        return domain.directory().resolve("imq/instances/imqbroker/log/log.txt");
    }

    private void asadmin(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "--port";
        all[1] = Integer.toString(domain.adminPort());
        System.arraycopy(args, 0, all, 2, args.length);
        domain.run(all);
    }

    @Override
    public String name() {
        return "payara-server";
    }

    @Override
    public String broker() {
        return "openmq-embedded-file-sync";
    }

    @Override
    public String dataSource(boolean xa) {
        return xa ? "jdbc/vs-xa" : "jdbc/vs";
    }

    @Override
    public String jmsConnectionFactory() {
        return "jms/vsFactory";
    }

    @Override
    public String jmsQueue() {
        return "jms/vsQueue";
    }

    /** OpenMQ's resource adapter runs at most endpointPoolMaxSize deliveries of a bean at a time. */
    @Override
    public Map<String, String> jmsConcurrency(int threads) {
        return Map.of("endpointPoolMaxSize", Integer.toString(threads),
                "endpointPoolSteadySize", Integer.toString(threads));
    }

    /** The bean pool as large as the deliveries at a time; the adapter's bean bound to the standalone adapter. */
    @Override
    public void addServerDescriptors(WebArchive consumer, String ejbName, Mode mode, int threads) {
        String adapter = mode.adapter()
                ? "<mdb-resource-adapter><resource-adapter-mid>sqlqueue-adapter</resource-adapter-mid></mdb-resource-adapter>"
                : "";
        consumer.addAsWebInfResource(new StringAsset("""
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE glassfish-ejb-jar PUBLIC "-//GlassFish.org//DTD GlassFish Application Server 3.1 EJB 3.1//EN" \
                "http://glassfish.org/dtds/glassfish-ejb-jar_3_1-1.dtd">
                <glassfish-ejb-jar><enterprise-beans><ejb><ejb-name>%s</ejb-name>
                <bean-pool><steady-pool-size>0</steady-pool-size><resize-quantity>1</resize-quantity>\
                <max-pool-size>%d</max-pool-size></bean-pool>%s</ejb></enterprise-beans></glassfish-ejb-jar>
                """.formatted(ejbName, threads, adapter)), "glassfish-ejb-jar.xml");
    }

    @Override
    public URI http() {
        return URI.create("http://127.0.0.1:" + domain.httpPort() + "/");
    }

    @Override
    public void deploy(Path archive, String name) throws Exception {
        asadmin("deploy", "--name", name, archive.toString());
    }

    @Override
    public void undeploy(String name) throws Exception {
        asadmin("undeploy", name);
    }

    /** Stops and deletes the domain, keeping its server.log and the broker's log in the work directory. */
    @Override
    public void close() throws Exception {
        keep(domain.serverLog(), "payara-server.log");
        keep(brokerLog(), "openmq.log");
        domain.remove();
    }

    private void keep(Path log, String as) throws Exception {
        if (Files.exists(log)) {
            Files.copy(log, domain.work().resolve(as), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
