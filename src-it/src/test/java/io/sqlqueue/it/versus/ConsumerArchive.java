package io.sqlqueue.it.versus;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The consumer application of one measurement: one message-driven bean, {@link QueueWork} or
 * {@link JmsWork} (on the broker, or on the adapter), its activation properties and its {@code jdbc/work} resource in ejb-jar.xml,
 * and the server's own descriptors.
 */
final class ConsumerArchive {

    static final String ADAPTER_QUEUE = "vs_queue";

    private ConsumerArchive() {
    }

    /** Writes {@code <name>.war} into the directory and returns its path. */
    static Path write(BrokerServer server, Settings settings, Mode mode, int threads, String name) {
        Class<?> bean = mode == Mode.ADAPTER ? QueueWork.class : JmsWork.class;
        String messaging = mode == Mode.ADAPTER ? "io.sqlqueue.api.QueueListener" : "jakarta.jms.MessageListener";
        Map<String, String> activation = new LinkedHashMap<>();
        if (mode.adapter()) {
            activation.put("queue", ADAPTER_QUEUE);
            activation.put("dataSourceJndiName", server.dataSource(false));
            activation.put("maxConcurrency", Integer.toString(threads));
            if (!settings.attemptCounting().isEmpty()) {
                activation.put("attemptCounting", settings.attemptCounting());
            }
        } else {
            activation.put("destinationLookup", server.jmsQueue());
            activation.put("destinationType", "jakarta.jms.Queue");
            activation.putAll(server.jmsConcurrency(threads));
        }
        StringBuilder config = new StringBuilder();
        activation.forEach((key, value) -> config.append("<activation-config-property><activation-config-property-name>")
                .append(key).append("</activation-config-property-name><activation-config-property-value>")
                .append(value).append("</activation-config-property-value></activation-config-property>"));
        String ejbJar = "<ejb-jar xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\"><enterprise-beans>"
                + "<message-driven><ejb-name>" + bean.getSimpleName() + "</ejb-name><ejb-class>" + bean.getName()
                + "</ejb-class><messaging-type>" + messaging + "</messaging-type>"
                + "<transaction-type>Container</transaction-type><activation-config>" + config
                + "</activation-config><resource-ref><res-ref-name>jdbc/work</res-ref-name>"
                + "<res-type>javax.sql.DataSource</res-type><lookup-name>" + server.dataSource(mode.xa())
                + "</lookup-name></resource-ref></message-driven></enterprise-beans></ejb-jar>";
        WebArchive war = ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(bean, Work.class)
                .addAsWebInfResource(new StringAsset(ejbJar), "ejb-jar.xml");
        server.addServerDescriptors(war, bean.getSimpleName(), mode, threads);
        Path file = settings.work().resolve(name + ".war");
        war.as(ZipExporter.class).exportTo(file.toFile(), true);
        return file;
    }

    /** The filler application, deployed once at {@code /vs-fill}. */
    static Path writeFiller(Path directory) {
        Path file = directory.resolve("vs-fill.war");
        ShrinkWrap.create(WebArchive.class, "vs-fill.war")
                .addClasses(JmsSender.class, JmsFillServlet.class)
                .as(ZipExporter.class).exportTo(file.toFile(), true);
        return file;
    }
}
