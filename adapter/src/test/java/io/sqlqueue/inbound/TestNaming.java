package io.sqlqueue.inbound;

import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;

/**
 * JNDI for unit tests, as a server gives the adapter its JDBC resources: {@link #bind} an object,
 * and {@code InitialContext.doLookup} finds it (once {@link #install} has run in this JVM).
 */
public final class TestNaming implements InitialContextFactory {

    private static final Map<String, Object> BOUND = new ConcurrentHashMap<>();

    static void install() {
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, TestNaming.class.getName());
    }

    static void bind(String name, Object value) {
        BOUND.put(name, value);
    }

    static void unbind(String name) {
        BOUND.remove(name);
    }

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) {
        return (Context) Proxy.newProxyInstance(TestNaming.class.getClassLoader(), new Class<?>[] {Context.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "lookup" -> {
                        Object found = BOUND.get(String.valueOf(args[0]));
                        if (found == null) {
                            throw new NameNotFoundException(args[0] + " is not bound");
                        }
                        yield found;
                    }
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException("test naming: " + method.getName());
                });
    }
}
