package io.sqlqueue.it.versus;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The adapter against the server's own JMS broker, in Payara Server (OpenMQ) and WildFly
 * (Artemis): {@code mvn -B -Pvs-jms -pl src-it verify} with SQLQUEUE_PG_URL (_USER, _PASSWORD)
 * naming a PostgreSQL, preferably one with {@code fsync} on (the run prints the setting). The
 * same bean work, one row per message in the container's transaction, driven by the adapter
 * ({@code dataSourceJndiName}), by a JMS bean with a plain JDBC resource and by one with an XA
 * JDBC resource ({@link Comparison}); per server and thread count it prints
 * {@code BENCH case=vs-jms server=<s> broker=<b> mode=<jms|jms-xa> threads=<t> messages=<n>
 * adapter=<n>/s jms=<m>/s ratio=<r> adapter_cpu_us=<µs> jms_cpu_us=<µs> cpu_ratio=<r>}.
 * {@code -Dbench.vs.messages} (20000) and {@code -Dbench.vs.threads} (1,4,16) size it;
 * {@code -Dbench.vs.attemptCounting=afterRollback} sets the adapter bean's property. Each
 * server skips itself visibly when its distribution is not unpacked.
 */
class VersusJmsBenchmark {

    @Test
    void payaraServer() throws Exception {
        Path payara = distribution("it.payara.home");
        Settings settings = settings("payara-server");
        try (PayaraBroker server = PayaraBroker.start(payara, settings)) {
            new Comparison(server, settings, messages()).run(threadCounts());
        }
    }

    @Test
    void wildFly() throws Exception {
        Path wildfly = distribution("it.wildfly.home");
        Settings settings = settings("wildfly");
        try (WildFlyBroker server = WildFlyBroker.start(wildfly, settings)) {
            new Comparison(server, settings, messages()).run(threadCounts());
        }
    }

    private static Path distribution(String property) {
        String home = System.getProperty(property, "");
        assumeTrue(!home.isBlank() && Files.isDirectory(Path.of(home, "bin")),
                "no server distribution at " + property + "='" + home + "': the vs-jms profile unpacks it");
        return Path.of(home);
    }

    private static Settings settings(String server) throws Exception {
        String url = System.getenv("SQLQUEUE_PG_URL");
        assumeTrue(url != null && !url.isBlank(), "SQLQUEUE_PG_URL is not set: the comparison needs a PostgreSQL");
        Path work = Path.of("target", "vs-jms", server).toAbsolutePath();
        Files.createDirectories(work);
        return new Settings(url, System.getenv("SQLQUEUE_PG_USER"), System.getenv("SQLQUEUE_PG_PASSWORD"),
                Path.of(System.getProperty("it.rar")).toAbsolutePath(), Path.of(System.getProperty("it.pg.jar")), work,
                System.getProperty("bench.vs.attemptCounting", ""));
    }

    private static int messages() {
        return Integer.getInteger("bench.vs.messages", 20_000);
    }

    private static int[] threadCounts() {
        return Arrays.stream(System.getProperty("bench.vs.threads", "1,4,16").split(","))
                .mapToInt(t -> Integer.parseInt(t.trim())).toArray();
    }
}
