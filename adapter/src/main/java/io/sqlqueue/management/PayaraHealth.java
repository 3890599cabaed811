package io.sqlqueue.management;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.ObjectName;

/**
 * Puts the adapter's {@link ReadinessCheck}s and {@link LivenessCheck}s on Payara's MicroProfile
 * Health endpoints ({@code /health}, {@code /health/ready}, {@code /health/live}); nothing happens
 * on a server without it (WildFly).
 * <p>
 * Why this way: MicroProfile Health finds {@code @Readiness} and {@code @Liveness} CDI beans, and a
 * resource adapter is no CDI deployment. Payara's {@code HealthCheckService} takes checks from any
 * code ({@code registerHealthCheck(key, HealthCheck, HealthCheckType)}) and removes all checks of a
 * key at once ({@code unregisterHealthCheck(key)}), so each bean gets a key of its own (its JMX
 * name). Reached by reflection, as {@link PayaraMetrics} reaches the metrics: no compile-time
 * dependency, a failure logged once and never in delivery's way.
 * <p>
 * A check's name is {@code sqlqueue-<type>} and the bean's JMX key properties, sorted, e.g.
 * {@code sqlqueue-consumer database=jdbc/orders,name=OrderBean,queue=orders}. A check never
 * throws: Payara answers 500 for the whole endpoint when one does (and retries an
 * IllegalStateException in an application's context, which ours is not), so a failure is a DOWN
 * with the failure in its data.
 */
final class PayaraHealth {

    private static final Logger LOG = Logger.getLogger(PayaraHealth.class.getName());
    private static final String SERVICE = "fish.payara.microprofile.healthcheck.HealthCheckService";
    private static final String API = "org.eclipse.microprofile.health.";
    private static final AtomicBoolean TOLD = new AtomicBoolean();

    private PayaraHealth() {
    }

    /** Registers the checks {@code bean} implements under its JMX name; none: nothing happens. */
    static void add(ObjectName name, Object bean) {
        if (!(bean instanceof ReadinessCheck) && !(bean instanceof LivenessCheck)) {
            return;
        }
        try {
            Service service = Service.find();
            if (service == null) {
                return;
            }
            String checkName = checkName(name);
            if (bean instanceof ReadinessCheck r) {
                service.register(name.toString(), "READINESS", checkName, r::readiness);
            }
            if (bean instanceof LivenessCheck l) {
                service.register(name.toString(), "LIVENESS", checkName, l::liveness);
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            tellOnce(Level.WARNING, "cannot register the adapter's health checks with Payara's MicroProfile Health;"
                    + " JMX still shows the state: " + e, e);
        }
    }

    /** Removes the checks registered for {@code name}; a name without any is ignored. */
    static void remove(ObjectName name) {
        try {
            Service service = Service.find();
            if (service != null) {
                service.unregister(name.toString());
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.log(Level.FINE, "cannot remove the health checks of " + name, e);
        }
    }

    /** {@code sqlqueue-<type>} and the key properties but type, sorted by key, their values unquoted. */
    static String checkName(ObjectName name) {
        Map<String, String> keys = new TreeMap<>(name.getKeyPropertyList());
        String type = keys.remove("type");
        StringBuilder s = new StringBuilder("sqlqueue-").append(type == null ? "bean" : type.toLowerCase(Locale.ROOT));
        String separator = " ";
        for (Map.Entry<String, String> key : keys.entrySet()) {
            String value = key.getValue().startsWith("\"") ? ObjectName.unquote(key.getValue()) : key.getValue();
            s.append(separator).append(key.getKey()).append('=').append(value);
            separator = ",";
        }
        return s.toString();
    }

    private static void tellOnce(Level level, String message, Throwable e) {
        if (TOLD.compareAndSet(false, true)) {
            LOG.log(level, message, e);
        }
    }

    /** Payara's health service and the MicroProfile Health API calls made on it. */
    private static final class Service {

        private final Object service;
        private final ClassLoader loader;
        private final Class<?> checkInterface;
        private final Method register;
        private final Method unregister;
        private final Class<?> typeClass;
        private final Constructor<?> response;
        private final Class<?> statusClass;

        private Service(Object service, ClassLoader loader) throws ReflectiveOperationException {
            this.service = service;
            this.loader = loader;
            Class<?> serviceClass = Class.forName(SERVICE, true, loader);
            checkInterface = Class.forName(API + "HealthCheck", true, loader);
            typeClass = Class.forName("fish.payara.microprofile.healthcheck.HealthCheckType", true, loader);
            register = serviceClass.getMethod("registerHealthCheck", String.class, checkInterface, typeClass);
            unregister = serviceClass.getMethod("unregisterHealthCheck", String.class);
            statusClass = Class.forName(API + "HealthCheckResponse$Status", true, loader);
            // the API's own response class, not its builder: the builder looks up a provider by ServiceLoader
            response = Class.forName(API + "HealthCheckResponse", true, loader)
                    .getConstructor(String.class, statusClass, Optional.class);
        }

        /** The service, or null where there is none (not Payara, or MicroProfile Health not running). */
        static Service find() throws ReflectiveOperationException {
            ClassLoader loader = PayaraHealth.class.getClassLoader();
            Object service;
            try {
                service = PayaraServices.find(SERVICE, loader);
            } catch (ClassNotFoundException notPayara) {
                tellOnce(Level.FINE, "no Payara MicroProfile Health here: the adapter's state is in JMX only", notPayara);
                return null;
            }
            return service == null ? null : new Service(service, loader);
        }

        void register(String key, String type, String checkName, Supplier<HealthReport> check)
                throws ReflectiveOperationException {
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object healthType = Enum.valueOf((Class) typeClass, type);
            call(register, key, healthCheck(checkName, check), healthType);
        }

        void unregister(String key) throws ReflectiveOperationException {
            call(unregister, key);
        }

        /** A MicroProfile {@code HealthCheck} answering with {@code check}'s report, DOWN if it fails. */
        private Object healthCheck(String checkName, Supplier<HealthReport> check) {
            return Proxy.newProxyInstance(loader, new Class<?>[] {checkInterface}, (proxy, method, args) ->
                    switch (method.getName()) {
                        case "call" -> respond(checkName, check);
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        case "toString" -> "HealthCheck(" + checkName + ")";
                        // HealthCheck declares call() alone: nothing else is ever invoked on it
                        default -> throw new IllegalStateException("HealthCheck has no method " + method.getName());
                    });
        }

        private Object respond(String checkName, Supplier<HealthReport> check) throws ReflectiveOperationException {
            HealthReport report;
            try {
                report = check.get();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "health check " + checkName + " failed", e);
                report = new HealthReport(false, Map.of("error", String.valueOf(e)));
            }
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object status = Enum.valueOf((Class) statusClass, report.up() ? "UP" : "DOWN");
            return response.newInstance(checkName, status, Optional.of(report.data()));
        }

        private void call(Method method, Object... args) throws ReflectiveOperationException {
            PayaraServices.invoke(method, service, args);
        }
    }
}
