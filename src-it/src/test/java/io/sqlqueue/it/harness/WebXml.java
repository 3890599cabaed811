package io.sqlqueue.it.harness;

import static io.sqlqueue.it.harness.TestDatabase.xml;

import java.util.Map;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The web.xml of a test WAR: the JDBC resources and queue connection factories it declares, with
 * the values of the run, for the adapter as the current {@link TargetServer} names it.
 */
public final class WebXml {

    private final String resourceAdapter;
    private final StringBuilder resources = new StringBuilder();

    /** For a test WAR named {@code <app>.war}. */
    public WebXml(String warName) {
        this.resourceAdapter = TargetServer.current().resourceAdapter(warName.replaceFirst("\\.war$", ""));
    }

    public WebXml dataSource(String jndiName, TestDatabase db, int maxPoolSize) {
        resources.append(db.dataSourceXml(jndiName, maxPoolSize));
        return this;
    }

    /**
     * A {@code QueueConnectionFactory} at {@code jndiName} with this transaction support
     * (XATransaction, LocalTransaction or NoTransaction) and these config properties.
     */
    public WebXml connectionFactory(String jndiName, String transactionSupport, int maxPoolSize,
            Map<String, String> properties) {
        return connectionFactory(jndiName, "io.sqlqueue.api.QueueConnectionFactory", transactionSupport, maxPoolSize,
                properties);
    }

    /** A connection factory of the adapter's definition for {@code interfaceName}, e.g. jakarta.jms.ConnectionFactory. */
    public WebXml connectionFactory(String jndiName, String interfaceName, String transactionSupport, int maxPoolSize,
            Map<String, String> properties) {
        resources.append("<connection-factory><name>").append(jndiName).append("</name>")
                .append("<interface-name>").append(interfaceName).append("</interface-name>")
                .append("<resource-adapter>").append(resourceAdapter).append("</resource-adapter>")
                .append("<max-pool-size>").append(maxPoolSize).append("</max-pool-size>")
                .append("<transaction-support>").append(transactionSupport).append("</transaction-support>");
        properties.forEach((name, value) -> resources.append("<property><name>").append(name)
                .append("</name><value>").append(xml(value)).append("</value></property>"));
        resources.append("</connection-factory>");
        return this;
    }

    /**
     * The elements of an application's own web.xml ({@code webXml}, its text), added to these: for
     * a test WAR built from an application's (its security constraints, login and roles).
     */
    public WebXml including(String webXml) {
        int start = webXml.indexOf('>', webXml.indexOf("<web-app")) + 1;
        resources.append(webXml, start, webXml.lastIndexOf("</web-app>"));
        return this;
    }

    /**
     * An administered object of the adapter at {@code jndiName}: {@code type} is its interface
     * (e.g. jakarta.jms.Queue), {@code implementation} the adapter's class, with its {@code name}.
     */
    public WebXml administeredObject(String jndiName, Class<?> type, String implementation, String name) {
        resources.append("<administered-object><name>").append(jndiName).append("</name>")
                .append("<interface-name>").append(type.getName()).append("</interface-name>")
                .append("<class-name>").append(implementation).append("</class-name>")
                .append("<resource-adapter>").append(resourceAdapter).append("</resource-adapter>")
                .append("<property><name>name</name><value>").append(xml(name)).append("</value></property>")
                .append("</administered-object>");
        return this;
    }

    /** Adds this web.xml to the WAR. */
    public WebArchive addTo(WebArchive war) {
        return war.addAsWebInfResource(new StringAsset("<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\""
                + " version=\"6.0\">" + resources + "</web-app>"), "web.xml");
    }
}
