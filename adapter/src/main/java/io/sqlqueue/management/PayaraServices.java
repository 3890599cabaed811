package io.sqlqueue.management;

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Payara's HK2 services, found by reflection so that the adapter has no compile-time dependency
 * on Payara and runs unchanged where they are absent.
 */
final class PayaraServices {

    private PayaraServices() {
    }

    /**
     * The service of class {@code className} from Payara's default service locator, or null where
     * there is none (the server is not Payara, or the service is not running).
     *
     * @throws ClassNotFoundException where the class is absent: not Payara, or not this Payara module
     */
    static Object find(String className, ClassLoader loader) throws ReflectiveOperationException {
        Class<?> serviceClass = Class.forName(className, true, loader);
        Object locator = Class.forName("org.glassfish.internal.api.Globals", true, loader)
                .getMethod("getDefaultBaseServiceLocator").invoke(null);
        return locator == null ? null : locator.getClass()
                .getMethod("getService", Class.class, Annotation[].class)
                .invoke(locator, serviceClass, new Annotation[0]);
    }

    /** Calls {@code method} on {@code target}; a RuntimeException it throws is thrown as it is. */
    static Object invoke(Method method, Object target, Object... args) throws ReflectiveOperationException {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }
}
