package io.sqlqueue.it.harness;

import java.io.File;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The server a failsafe execution runs the tests on (system property {@code it.server}), and how
 * a test WAR is deployed there: on Payara Micro as it is, after the adapter's .rar (deployed
 * standalone by the post-boot file; Micro cannot deploy an EAR); on Payara Server and WildFly in
 * an EAR with the .rar embedded, as applications ship it.
 */
public enum TargetServer {
    PAYARA_MICRO("payara-micro"),
    PAYARA_SERVER("payara-server"),
    WILDFLY("wildfly");

    /** The adapter's module name inside the test EARs. */
    private static final String RAR_MODULE = "sqlqueue-adapter";

    private final String id;

    TargetServer(String id) {
        this.id = id;
    }

    /** This execution's server: {@code it.server}, Payara Micro when unset. */
    public static TargetServer current() {
        String id = System.getProperty("it.server", PAYARA_MICRO.id);
        for (TargetServer s : values()) {
            if (s.id.equals(id)) {
                return s;
            }
        }
        throw new IllegalStateException("it.server must be payara-micro, payara-server or wildfly, not " + id);
    }

    /**
     * The archive to deploy for a test WAR named {@code <app>.war}: the WAR itself on Micro, an
     * {@code <app>.ear} holding the adapter and the WAR on the full servers. The test class goes
     * into the WAR (Arquillian would put it where WildFly's WAR cannot load it).
     */
    public Archive<?> deployable(Class<?> testClass, WebArchive war) {
        return deployable(testClass, war, new WebArchive[0]);
    }

    /**
     * As {@link #deployable(Class, WebArchive)}, with more web applications in the EAR beside the
     * test WAR, each as it is, at the context root of its name (e.g. the console's WAR as built at
     * {@code /sqlqueue-console}). Full servers only: Micro deploys one WAR per process.
     */
    public Archive<?> deployable(Class<?> testClass, WebArchive war, WebArchive... beside) {
        war.addClass(testClass);
        if (this == PAYARA_MICRO) {
            if (beside.length > 0) {
                throw new IllegalArgumentException("Payara Micro deploys one WAR, not an EAR with "
                        + (beside.length + 1) + " web modules");
            }
            return war;
        }
        String app = applicationName(war);
        if (this == WILDFLY) {
            // WildFly binds message-driven beans to its default adapter (ActiveMQ) unless told
            // (there "#<module>.rar", relative to the EAR: the full id of resourceAdapter is not found)
            war.addAsWebInfResource(new StringAsset(JBOSS_EJB3_XML.replace("ADAPTER", "#" + RAR_MODULE + ".rar")),
                    "jboss-ejb3.xml");
        }
        String rar = System.getProperty("it.rar");
        if (rar == null || !new File(rar).isFile()) {
            throw new IllegalStateException("system property it.rar must name the adapter's .rar: " + rar);
        }
        EnterpriseArchive ear = ShrinkWrap.create(EnterpriseArchive.class, app + ".ear")
                .addAsModule(new File(rar), RAR_MODULE + ".rar")
                .addAsModule(war);
        StringBuilder modules = new StringBuilder(webModule(war));
        for (WebArchive other : beside) {
            ear.addAsModule(other);
            modules.append(webModule(other));
        }
        return ear.setApplicationXML(new StringAsset("<application xmlns=\"https://jakarta.ee/xml/ns/jakartaee\""
                + " version=\"10\"><application-name>" + app + "</application-name>"
                + "<module><connector>" + RAR_MODULE + ".rar</connector></module>" + modules + "</application>"));
    }

    private static String webModule(WebArchive war) {
        return "<module><web><web-uri>" + war.getName() + "</web-uri><context-root>/" + applicationName(war)
                + "</context-root></web></module>";
    }

    /** The adapter's id for connection factories and bindings of the application {@code app}. */
    public String resourceAdapter(String app) {
        return switch (this) {
            case PAYARA_MICRO -> RAR_MODULE; // the standalone .rar's file name
            case PAYARA_SERVER, WILDFLY -> "#" + RAR_MODULE; // the module of the same EAR
        };
    }

    /** The application name of a test WAR: its file name without {@code .war}. */
    public static String applicationName(WebArchive war) {
        return war.getName().replaceFirst("\\.war$", "");
    }

    private static final String JBOSS_EJB3_XML = "<jboss:ejb-jar xmlns:jboss=\"urn:jboss:domain:ejb3:1.0\""
            + " xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" xmlns:mdb=\"urn:resource-adapter-binding\""
            + " version=\"4.0\"><assembly-descriptor><mdb:resource-adapter-binding><ejb-name>*</ejb-name>"
            + "<mdb:resource-adapter-name>ADAPTER</mdb:resource-adapter-name></mdb:resource-adapter-binding>"
            + "</assembly-descriptor></jboss:ejb-jar>";
}
