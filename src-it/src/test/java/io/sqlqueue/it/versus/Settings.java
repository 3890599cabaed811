package io.sqlqueue.it.versus;

import java.net.URI;
import java.nio.file.Path;

/**
 * What the comparison runs on: the benchmark's PostgreSQL (SQLQUEUE_PG_URL, _USER, _PASSWORD),
 * the adapter's .rar, the PostgreSQL driver's jar, a work directory, and the adapter bean's
 * attemptCounting (empty: the adapter's default).
 */
record Settings(String url, String user, String password, Path rar, Path postgresDriver, Path work,
        String attemptCounting) {

    private URI address() {
        return URI.create(url.substring("jdbc:".length()));
    }

    String host() {
        return address().getHost();
    }

    int port() {
        return address().getPort() < 0 ? 5432 : address().getPort();
    }

    String database() {
        return address().getPath().substring(1);
    }
}
