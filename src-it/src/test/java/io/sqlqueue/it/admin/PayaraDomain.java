package io.sqlqueue.it.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.stream.Stream;

/**
 * A Payara Server domain of a test's own, made fresh and removed again with asadmin: every listener
 * on 127.0.0.1, ports from {@code portBase} (admin {@code portBase + 48}, HTTP {@code portBase +
 * 80}), its {@code jms-service} element as given (by default none: the broker disabled). asadmin
 * and scripts run with AS_JAVA = this JVM; their output is appended to {@code work/asadmin.log}.
 */
public record PayaraDomain(Path payara, String name, int portBase, Path work, String jmsService) {

    /** The jms-service element of a domain without a JMS broker. */
    public static final String NO_JMS = "<jms-service type=\"DISABLED\" default-jms-host=\"default_JMS_host\"></jms-service>";

    public PayaraDomain(Path payara, String name, int portBase, Path work) {
        this(payara, name, portBase, work, NO_JMS);
    }

    public int adminPort() {
        return portBase + 48;
    }

    public int httpPort() {
        return portBase + 80;
    }

    Path asadmin() {
        return payara.resolve("bin/asadmin");
    }

    public Path directory() {
        return payara.resolve("glassfish/domains").resolve(name);
    }

    public Path serverLog() {
        return directory().resolve("logs/server.log");
    }

    /** Removes what an earlier run left, then creates and starts the domain. */
    public void createAndStart() throws Exception {
        create();
        start();
    }

    /** Removes what an earlier run left, then creates the domain, bound to 127.0.0.1, not started. */
    public void create() throws Exception {
        remove();
        run("--interactive=false", "create-domain", "--nopassword=true", "--portbase", String.valueOf(portBase), name);
        bindToLoopback(directory().resolve("config/domain.xml"), jmsService);
    }

    public void start() throws Exception {
        run("start-domain", name);
    }

    /** Stops the domain if it runs and deletes it, a half-created one too. */
    public void remove() throws Exception {
        if (Files.exists(directory().resolve("config/pid"))) {
            run("stop-domain", name);
        }
        if (Files.exists(directory())) {
            run("delete-domain", name);
        }
        if (Files.exists(directory())) {
            try (Stream<Path> files = Files.walk(directory())) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Runs admin/payara-server.sh against the domain, with the given arguments. */
    int runScript(Path script, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", script.toString()));
        command.addAll(List.of(arguments));
        return exec(Map.of("ASADMIN", asadmin().toString(), "AS_ADMIN_PORT", String.valueOf(adminPort())),
                command.toArray(String[]::new));
    }

    /** Runs asadmin; fails on a non-zero exit. */
    public void run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", asadmin().toString()));
        command.addAll(List.of(args));
        int exit = exec(Map.of(), command.toArray(String[]::new));
        assertEquals(0, exit, "asadmin " + String.join(" ", args) + " failed: see " + work.resolve("asadmin.log"));
    }

    private int exec(Map<String, String> env, String... command) throws Exception {
        Files.createDirectories(work);
        Path log = work.resolve("asadmin.log");
        Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("AS_JAVA", System.getProperty("java.home"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish in 10 minutes");
        }
        return p.exitValue();
    }

    /**
     * Everything listens on 127.0.0.1 only, set before the first start (as the payara-server profile
     * does); the server's config gets the jms-service element.
     */
    private static void bindToLoopback(Path domainXml, String jmsService) throws IOException {
        String xml = Files.readString(domainXml);
        xml = xml.replaceAll("<network-listener (?![^>]*address=)", "<network-listener address=\"127.0.0.1\" ")
                .replace("address=\"0.0.0.0\"", "address=\"127.0.0.1\"")
                .replaceFirst("<hazelcast-runtime-configuration ",
                        "<hazelcast-runtime-configuration das-bind-address=\"127.0.0.1\" interface=\"127.0.0.1\" ")
                .replaceFirst("<jvm-options>", "<jvm-options>-Dhazelcast.socket.bind.any=false</jvm-options><jvm-options>")
                .replaceFirst("</config>", Matcher.quoteReplacement(jmsService + "</config>"));
        Files.writeString(domainXml, xml);
    }
}
