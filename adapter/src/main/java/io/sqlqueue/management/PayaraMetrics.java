package io.sqlqueue.management;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.ObjectName;

/**
 * Mirrors the adapter's beans into Payara's MicroProfile Metrics as gauges of the scope
 * {@value #SCOPE}, so that Payara's {@code /metrics} shows them in Prometheus text
 * ({@link MetricFigures} names them); nothing happens on a server without it (WildFly).
 * <p>
 * Why this way: Payara maps JMX attributes into {@code /metrics} only through a domain-wide
 * {@code config/metrics.xml}, and while that file exists its metrics sniffer claims every archive
 * and no resource adapter deploys; the MicroProfile Metrics API hands registries only to CDI beans,
 * which an adapter is not. So the registry comes from Payara's metrics service, by reflection: no
 * compile-time dependency, and a failure is logged once and never reaches delivery. The server's
 * own registries of scope base and vendor are rebuilt at every scrape; a scope of our own is not.
 */
final class PayaraMetrics {

    static final String SCOPE = "sqlqueue";
    private static final Logger LOG = Logger.getLogger(PayaraMetrics.class.getName());
    private static final AtomicBoolean TOLD = new AtomicBoolean();
    /** The metric ids registered for each bean name, to remove with it; guarded by itself. */
    private static final Map<ObjectName, Registered> REGISTERED = new HashMap<>();

    private record Registered(Registry registry, List<Object> metricIds) {
    }

    private PayaraMetrics() {
    }

    /** Registers the figures of {@code bean}, registered on the platform MBean server as {@code name}. */
    static void add(ObjectName name, Object bean) {
        List<MetricFigures.Figure> figures = MetricFigures.of(name, bean);
        if (figures.isEmpty()) {
            return;
        }
        try {
            Registry registry = Registry.find();
            if (registry == null) {
                return;
            }
            List<Object> ids = new ArrayList<>();
            for (MetricFigures.Figure f : figures) {
                ids.add(registry.gauge(f));
            }
            synchronized (REGISTERED) {
                REGISTERED.put(name, new Registered(registry, ids));
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            tellOnce(Level.WARNING, "cannot register the adapter's figures with Payara's MicroProfile Metrics;"
                    + " JMX still has them: " + e, e);
        }
    }

    /** Removes the figures registered for {@code name}; a name without any is ignored. */
    static void remove(ObjectName name) {
        Registered registered;
        synchronized (REGISTERED) {
            registered = REGISTERED.remove(name);
        }
        if (registered == null) {
            return;
        }
        try {
            for (Object id : registered.metricIds()) {
                registered.registry().remove(id);
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.log(Level.FINE, "cannot remove the figures of " + name + " from MicroProfile Metrics", e);
        }
    }

    private static void tellOnce(Level level, String message, Throwable e) {
        if (TOLD.compareAndSet(false, true)) {
            LOG.log(level, message, e);
        }
    }

    /** Payara's registry of scope {@value #SCOPE} and the MicroProfile Metrics API calls made on it. */
    private static final class Registry {

        private final Object registry;
        private final Method gauge;
        private final Method remove;
        private final Constructor<?> tag;
        private final Constructor<?> metricId;
        private final Class<?> tagClass;

        private Registry(Object registry, ClassLoader loader) throws ReflectiveOperationException {
            this.registry = registry;
            Class<?> registryClass = Class.forName("org.eclipse.microprofile.metrics.MetricRegistry", true, loader);
            tagClass = Class.forName("org.eclipse.microprofile.metrics.Tag", true, loader);
            Class<?> tags = Array.newInstance(tagClass, 0).getClass();
            gauge = registryClass.getMethod("gauge", String.class, Object.class, Function.class, tags);
            Class<?> idClass = Class.forName("org.eclipse.microprofile.metrics.MetricID", true, loader);
            remove = registryClass.getMethod("remove", idClass);
            tag = tagClass.getConstructor(String.class, String.class);
            metricId = idClass.getConstructor(String.class, tags);
        }

        /**
         * The registry, or null where there is none: not Payara (no metrics service), or
         * MicroProfile Metrics turned off ({@code set-metrics-configuration --enabled=false}).
         */
        static Registry find() throws ReflectiveOperationException {
            ClassLoader loader = PayaraMetrics.class.getClassLoader();
            Class<?> serviceClass;
            Object locator;
            try {
                serviceClass = Class.forName("fish.payara.microprofile.metrics.MetricsService", true, loader);
                locator = Class.forName("org.glassfish.internal.api.Globals", true, loader)
                        .getMethod("getDefaultBaseServiceLocator").invoke(null);
            } catch (ClassNotFoundException notPayara) {
                tellOnce(Level.FINE, "no Payara MicroProfile Metrics here: the figures are in JMX only", notPayara);
                return null;
            }
            Object service = locator == null ? null : locator.getClass()
                    .getMethod("getService", Class.class, java.lang.annotation.Annotation[].class)
                    .invoke(locator, serviceClass, new java.lang.annotation.Annotation[0]);
            // the server's context ("" by Payara's MetricsContext.SERVER_CONTEXT_NAME): not an application's
            Object context = service == null ? null
                    : serviceClass.getMethod("getContext", String.class).invoke(service, "");
            if (context == null) {
                tellOnce(Level.INFO, "MicroProfile Metrics is turned off: the adapter's figures are in JMX only", null);
                return null;
            }
            Object registry = Class.forName("fish.payara.microprofile.metrics.MetricsService$MetricsContext", true,
                    loader).getMethod("getOrCreateRegistry", String.class).invoke(context, SCOPE);
            return new Registry(registry, loader);
        }

        /** Registers {@code f} and returns its MetricID. */
        Object gauge(MetricFigures.Figure f) throws ReflectiveOperationException {
            Object tags = tags(f.labels());
            // a figure that cannot be read shows as NaN: an exception here would fail the whole scrape
            Function<Object, Double> read = ignored -> {
                try {
                    return f.value().getAsDouble();
                } catch (RuntimeException e) {
                    return Double.NaN;
                }
            };
            call(gauge, f.name(), this, read, tags);
            return metricId.newInstance(f.name(), tags);
        }

        void remove(Object id) throws ReflectiveOperationException {
            call(remove, id);
        }

        private Object tags(Map<String, String> labels) throws ReflectiveOperationException {
            Object tags = Array.newInstance(tagClass, labels.size());
            int i = 0;
            for (Map.Entry<String, String> label : labels.entrySet()) {
                Array.set(tags, i++, tag.newInstance(label.getKey(), label.getValue()));
            }
            return tags;
        }

        private Object call(Method method, Object... args) throws ReflectiveOperationException {
            try {
                return method.invoke(registry, args);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw e;
            }
        }
    }
}
