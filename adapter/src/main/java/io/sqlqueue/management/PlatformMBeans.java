package io.sqlqueue.management;

import java.lang.management.ManagementFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers the adapter's beans on the platform MBean server, which Payara's and WildFly's
 * consoles, JConsole and VisualVM show, and their figures with Payara's MicroProfile Metrics
 * ({@link PayaraMetrics}). A bean that cannot be registered is logged and skipped: monitoring must
 * never stop delivery.
 */
public final class PlatformMBeans {

    public static final String DOMAIN = "io.sqlqueue";
    private static final Logger LOG = Logger.getLogger(PlatformMBeans.class.getName());

    private PlatformMBeans() {
    }

    /**
     * Registers {@code bean} as {@code io.sqlqueue:type=<type>,<keys>}; when the name is taken
     * (the same bean class consuming the same queue twice) as {@code …,instance=2}, 3 and so on.
     *
     * @param keys further key properties as {@code key, value, key, value …}
     * @return the name it was registered under, or null if it could not be
     */
    public static ObjectName register(Object bean, String type, String... keys) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        StringBuilder name = new StringBuilder(DOMAIN + ":type=" + type);
        for (int i = 0; i + 1 < keys.length; i += 2) {
            name.append(',').append(keys[i]).append('=').append(quoteIfNeeded(keys[i + 1]));
        }
        try {
            for (int instance = 1; instance < 100; instance++) {
                ObjectName candidate = new ObjectName(instance == 1 ? name.toString() : name + ",instance=" + instance);
                if (!server.isRegistered(candidate)) {
                    ObjectName registered = server.registerMBean(DescribedMXBean.of(bean), candidate).getObjectName();
                    PayaraMetrics.add(registered, bean);
                    PayaraHealth.add(registered, bean);
                    return registered;
                }
            }
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.WARNING, "cannot register the management bean " + name + ": " + e, e);
        }
        return null;
    }

    /** Unregisters a name {@link #register} returned; null and names already gone are ignored. */
    public static void unregister(ObjectName name) {
        if (name == null) {
            return;
        }
        PayaraMetrics.remove(name);
        PayaraHealth.remove(name);
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.FINE, "management bean " + name + " was already gone", e);
        }
    }

    private static String quoteIfNeeded(String value) {
        return value.matches("[A-Za-z0-9_.$-]+") ? value : ObjectName.quote(value);
    }
}
