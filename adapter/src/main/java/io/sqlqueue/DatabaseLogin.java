package io.sqlqueue;

import io.sqlqueue.engine.DriverDataSources;

/**
 * Where and as whom the adapter's own connections reach a queue database: a JDBC URL, user and
 * password. An activation and a connection factory each resolve theirs the same way
 * ({@link #of}): their own value where they set one, else the resource adapter's. Immutable; its
 * text never shows the password, nor secrets inside the URL.
 *
 * @param jdbcUrl the driver's URL; empty when neither sets one
 * @param user the database user; empty for the driver's default
 * @param password the password; empty for none
 */
public record DatabaseLogin(String jdbcUrl, String user, String password) {

    /**
     * The login from a component's own properties and, for each one it leaves empty (null or
     * blank), the resource adapter's ({@code adapter} may be null: no defaults).
     */
    public static DatabaseLogin of(String jdbcUrl, String user, String password, QueueResourceAdapter adapter) {
        return new DatabaseLogin(ownElse(jdbcUrl, adapter == null ? null : adapter.getJdbcUrl()).trim(),
                ownElse(user, adapter == null ? null : adapter.getUser()),
                ownElse(password, adapter == null ? null : adapter.getPassword()));
    }

    private static String ownElse(String own, String adapters) {
        return own != null && !own.isBlank() ? own : adapters == null ? "" : adapters;
    }

    /** Whether a URL is set at all. */
    public boolean hasUrl() {
        return !jdbcUrl.isEmpty();
    }

    /** The URL without secrets: what logs, errors and management beans may show. */
    public String database() {
        return DriverDataSources.withoutSecrets(jdbcUrl);
    }

    /** The URL without secrets and the user; never the password. */
    @Override
    public String toString() {
        return database() + " as user '" + user + "'";
    }
}
