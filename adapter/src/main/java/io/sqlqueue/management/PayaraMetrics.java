package io.sqlqueue.management;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.ObjectName;

/**
 * Mirrors the adapter's beans into Payara's MicroProfile Metrics in the scope {@value #SCOPE}, so
 * that Payara's {@code /metrics} shows them in Prometheus text ({@link MetricFigures} names and types
 * them, its HELP text in the metadata); nothing happens on a server without it (WildFly).
 * <p>
 * Why this way: Payara maps JMX attributes into {@code /metrics} only through a domain-wide
 * {@code config/metrics.xml}, and while that file exists its metrics sniffer claims every archive
 * and no resource adapter deploys; the MicroProfile Metrics API hands registries only to CDI beans,
 * which an adapter is not. So the registry comes from Payara's metrics service, by reflection: no
 * compile-time dependency, and a failure is logged once and never reaches delivery. The server's
 * own registries of scope base and vendor are rebuilt at every scrape; a scope of our own is not.
 * <p>
 * A counter whose value is read from the bean: MicroProfile Metrics 5's API makes counters only
 * to be incremented, so it is a {@code Counter} of our own (a proxy reading the bean) handed to
 * Payara's registry's {@code register}, which its Prometheus output writes as {@code counter}.
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
        Registry registry = null;
        List<Object> ids = new ArrayList<>();
        try {
            List<MetricFigures.Figure> figures = MetricFigures.of(name, bean);
            registry = figures.isEmpty() ? null : Registry.find();
            if (registry == null) {
                return;
            }
            for (MetricFigures.Figure f : figures) {
                ids.add(registry.register(f));
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            tellOnce(Level.WARNING, "cannot register the adapter's figures with Payara's MicroProfile Metrics;"
                    + " JMX still has them: " + e, e);
        } finally {
            // what did register goes with the bean, even when a later figure failed
            if (!ids.isEmpty()) {
                synchronized (REGISTERED) {
                    REGISTERED.put(name, new Registered(registry, ids));
                }
            }
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
        private final ClassLoader loader;
        private final Method gauge;
        /** Payara's own {@code register(Metadata, String type, Metric, Tag...)}; null where it has none. */
        private final Method register;
        private final Class<?> counterClass;
        private final Method metadataBuilder;
        private final Method remove;
        private final Constructor<?> tag;
        private final Constructor<?> metricId;
        private final Class<?> tagClass;

        private Registry(Object registry, ClassLoader loader) throws ReflectiveOperationException {
            this.registry = registry;
            this.loader = loader;
            Class<?> registryClass = api("MetricRegistry");
            tagClass = api("Tag");
            Class<?> tags = Array.newInstance(tagClass, 0).getClass();
            Class<?> metadataClass = api("Metadata");
            metadataBuilder = metadataClass.getMethod("builder");
            gauge = registryClass.getMethod("gauge", metadataClass, Supplier.class, tags);
            counterClass = api("Counter");
            register = publicMethodOrNull(registry.getClass(), "register", metadataClass, String.class, api("Metric"), tags);
            Class<?> idClass = api("MetricID");
            remove = registryClass.getMethod("remove", idClass);
            tag = tagClass.getConstructor(String.class, String.class);
            metricId = idClass.getConstructor(String.class, tags);
        }

        private Class<?> api(String simpleName) throws ClassNotFoundException {
            return Class.forName("org.eclipse.microprofile.metrics." + simpleName, true, loader);
        }

        private static Method publicMethodOrNull(Class<?> type, String name, Class<?>... parameters) {
            try {
                return type.getMethod(name, parameters);
            } catch (NoSuchMethodException e) {
                return null;
            }
        }

        /**
         * The registry, or null where there is none: not Payara (no metrics service), or
         * MicroProfile Metrics turned off ({@code set-metrics-configuration --enabled=false}).
         */
        static Registry find() throws ReflectiveOperationException {
            ClassLoader loader = PayaraMetrics.class.getClassLoader();
            String serviceClass = "fish.payara.microprofile.metrics.MetricsService";
            Object service;
            try {
                service = PayaraServices.find(serviceClass, loader);
            } catch (ClassNotFoundException notPayara) {
                tellOnce(Level.FINE, "no Payara MicroProfile Metrics here: the figures are in JMX only", notPayara);
                return null;
            }
            // the server's context ("" by Payara's MetricsContext.SERVER_CONTEXT_NAME): not an application's
            Object context = service == null ? null
                    : Class.forName(serviceClass, true, loader).getMethod("getContext", String.class).invoke(service, "");
            if (context == null) {
                tellOnce(Level.INFO, "MicroProfile Metrics is turned off: the adapter's figures are in JMX only", null);
                return null;
            }
            Object registry = Class.forName("fish.payara.microprofile.metrics.MetricsService$MetricsContext", true,
                    loader).getMethod("getOrCreateRegistry", String.class).invoke(context, SCOPE);
            return new Registry(registry, loader);
        }

        /** Registers {@code f} as its type says and returns its MetricID. */
        Object register(MetricFigures.Figure f) throws ReflectiveOperationException {
            Object tags = tags(f.labels());
            Object metadata = metadata(f);
            if (f.type() == MetricFigures.Type.COUNTER && register != null) {
                call(register, metadata, counterClass.getName(), counter(f.value()), tags);
            } else {
                if (f.type() == MetricFigures.Type.COUNTER) {
                    tellOnce(Level.INFO, "this Payara's metrics registry takes no counter of ours: counts are typed gauge", null);
                }
                // a figure that cannot be read shows as NaN: an exception here would fail the whole scrape
                Supplier<Double> read = () -> {
                    try {
                        return f.value().getAsDouble();
                    } catch (RuntimeException e) {
                        return Double.NaN;
                    }
                };
                call(gauge, metadata, read, tags);
            }
            return metricId.newInstance(f.name(), tags);
        }

        private Object metadata(MetricFigures.Figure f) throws ReflectiveOperationException {
            Object builder = metadataBuilder.invoke(null);
            Class<?> builderClass = builder.getClass();
            builderClass.getMethod("withName", String.class).invoke(builder, f.name());
            builderClass.getMethod("withDescription", String.class).invoke(builder, f.help());
            return builderClass.getMethod("build").invoke(builder);
        }

        /**
         * A MicroProfile {@code Counter} whose count is read from the bean; it cannot be incremented.
         * Should a read fail, it repeats the last count: a drop would read as a reset.
         */
        private Object counter(DoubleSupplier value) {
            AtomicLong last = new AtomicLong();
            return Proxy.newProxyInstance(loader, new Class<?>[] {counterClass}, (proxy, method, args) ->
                    switch (method.getName()) {
                        case "getCount" -> {
                            try {
                                last.set((long) value.getAsDouble());
                            } catch (RuntimeException e) {
                                LOG.log(Level.FINE, "cannot read a count for /metrics", e);
                            }
                            yield last.get();
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        case "toString" -> "Counter(" + last.get() + ")";
                        // inc(): the count is the bean's, read at each scrape; no one else may add to it
                        default -> throw new IllegalStateException("a count read from the adapter's bean cannot be"
                                + " changed through /metrics (" + method.getName() + ")");
                    });
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
            return PayaraServices.invoke(method, registry, args);
        }
    }
}
