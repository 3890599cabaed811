package io.sqlqueue;

import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The one way the adapter looks up what a property names in JNDI (a JDBC resource, a connection
 * factory), with one wording for what went wrong. Each caller turns the failure into its own
 * layer's exception: the poller's an outage it retries, the connection factory's a
 * ResourceException, a batch step's a failed job.
 */
public final class JndiLookup {

    private JndiLookup() {
    }

    /**
     * The object bound at {@code name}, named by the property {@code property}.
     *
     * @throws NamingException naming the property, the name and what is wrong: nothing bound
     *         there (yet), or an object that is not a {@code type}
     */
    public static <T> T find(String property, String name, Class<T> type) throws NamingException {
        Object found;
        try {
            found = InitialContext.doLookup(name);
        } catch (NamingException e) {
            NamingException named = new NamingException(property + " '" + name + "' names nothing in JNDI (yet): "
                    + e.getMessage());
            named.setRootCause(e);
            throw named;
        }
        if (!type.isInstance(found)) {
            throw new NamingException(property + " '" + name + "' names a " + found.getClass().getName() + ", not a "
                    + type.getName());
        }
        return type.cast(found);
    }
}
