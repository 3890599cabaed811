package io.sqlqueue.it.wildfly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.it.wildfly.app.AdminPathListener;
import io.sqlqueue.it.wildfly.app.AdminPathServlet;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The WildFly admin path, as an administrator would walk it: a fresh WildFly (standalone-full,
 * from the unpacked distribution, on a copy of its standalone/ directory) is configured by
 * {@code admin/wildfly.cli} exactly as committed (jboss-cli, failing on any failed command); then
 * an application using the standalone adapter (jboss-deployment-structure.xml, jboss-ejb3.xml
 * from src/test/resources/wildfly-admin) is deployed, sends messages through the factory the
 * script made and its message-driven bean records them in a table: each exactly once, with the
 * script's activation-property override in effect, and no error or adapter/IronJacamar warning
 * in the server log from boot to shutdown. Runs in the wildfly-admin-path failsafe execution
 * (profile wildfly), which sets it.wildfly.home; skipped elsewhere.
 */
class WildFlyAdminPathIT {

    private static final String HOME_PROPERTY = "it.wildfly.admin.home";
    private static final int MESSAGES = 200;
    /** Sent through the script's JMS connection factory and queue. */
    private static final int JMS_MESSAGES = 50;
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration PROCESSING = Duration.ofMinutes(2);
    /** The override admin/wildfly.cli sets (the application's default is 4). */
    private static final String OVERRIDE = "maxConcurrency=6";
    /**
     * WARN records of every fresh standalone-full server, accepted: WFLYTX0013 (the transactions
     * subsystem's default node-identifier: one server, no shared object store), WFLYELY00023 and
     * WFLYELY01084 (the HTTPS listener's keystore is generated on first use: nothing uses HTTPS).
     */
    private static final Set<String> ACCEPTED_WARNINGS = Set.of("WFLYTX0013", "WFLYELY00023", "WFLYELY01084");
    private static final Pattern LOG_RECORD = Pattern.compile(
            "^\\S+ \\S+ (WARN|ERROR)\\s+\\[([^\\]]+)\\] \\([^)]*\\) (\\w+)?.*");

    @Test
    void anAdministratorsScriptConfiguresTheAdapterForAnApplication() throws Exception {
        String wildfly = System.getProperty(HOME_PROPERTY);
        assumeTrue(wildfly != null && !wildfly.isBlank(),
                "runs in the wildfly-admin-path execution of src-it/pom.xml, which sets " + HOME_PROPERTY);
        Path home = Path.of(wildfly).toAbsolutePath().normalize();
        Path rar = Path.of(System.getProperty("it.rar", "../adapter/target/sqlqueue-adapter.rar")).toAbsolutePath().normalize();
        Path script = adminScript();
        int offset = Integer.getInteger("it.wildfly.admin.port.offset", 3300);
        assertTrue(Files.isDirectory(home.resolve("bin")), "WildFly is not unpacked at " + home);
        assertTrue(Files.isRegularFile(rar), "the adapter is not built: " + rar);

        Path work = Path.of("target/wildfly-admin-path").toAbsolutePath().normalize();
        WildFlyStandalone.deleteTree(work);
        Files.createDirectories(work);
        long t0 = System.nanoTime();
        try (WildFlyStandalone server = WildFlyStandalone.start(home, work, offset, BOOT)) {
            Path serverLog = server.serverLog();
            long booted = System.nanoTime();

            // the administrator's script, unchanged
            server.cli(work.resolve("cli-admin.log"), "--file=" + script, "-Dsqlqueue.rar=" + rar);
            long configured = System.nanoTime();

            File war = work.resolve("admin-path.war").toFile();
            ShrinkWrap.create(WebArchive.class, "admin-path.war")
                    .addClasses(AdminPathListener.class, AdminPathServlet.class)
                    .addAsWebInfResource("wildfly-admin/jboss-deployment-structure.xml", "jboss-deployment-structure.xml")
                    .addAsWebInfResource("wildfly-admin/jboss-ejb3.xml", "jboss-ejb3.xml")
                    .as(ZipExporter.class).exportTo(war, true);
            server.cli(work.resolve("cli-deploy.log"), "--command=deploy " + war);
            long deployed = System.nanoTime();

            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            URI endpoint = URI.create("http://127.0.0.1:" + server.httpPort() + "/admin-path/queue");
            for (String query : List.of("?count=" + MESSAGES, "?via=jms&count=" + JMS_MESSAGES)) {
                HttpResponse<String> sent = client.send(HttpRequest.newBuilder(URI.create(endpoint + query))
                        .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(1)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, sent.statusCode(), "sending " + query + " failed: " + sent.body());
            }
            // with the queue empty no delivery is left to come: the counts are final
            int total = MESSAGES + JMS_MESSAGES;
            String expected = "processed=" + total + " distinct=" + total + " queued=0";
            server.await(total + " messages are processed and the queue is empty", PROCESSING, () -> {
                String status = get(client, endpoint);
                return status.endsWith(" queued=0") && processed(status) >= total;
            });
            long processed = System.nanoTime();
            assertEquals(expected, get(client, endpoint), "every message processed exactly once");

            // the override of admin/wildfly.cli reached the activation (the adapter's INFO line)
            List<String> activations = Files.readAllLines(serverLog, StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains("activated ") && l.contains(AdminPathListener.class.getName())).toList();
            assertEquals(1, activations.size(), "one activation of the bean: " + activations);
            assertTrue(activations.get(0).contains(", " + OVERRIDE + ","), "the script's override (" + OVERRIDE
                    + ") is not in effect: " + activations.get(0));

            // a clean shutdown, so that the log covers the adapter's stop too
            server.shutdown(work.resolve("cli-shutdown.log"));
            long stopped = System.nanoTime();
            assertCleanLog(serverLog);
            System.out.printf("WildFlyAdminPathIT: boot %d ms, admin script %d ms, application deployed in %d ms,"
                    + " %d messages processed in %d ms, shutdown %d ms%n", ms(booted - t0), ms(configured - booted),
                    ms(deployed - configured), MESSAGES + JMS_MESSAGES, ms(processed - deployed), ms(stopped - processed));
        }
    }

    /**
     * Every command line of admin/wildfly.cli is in docs/wildfly-cli.md, the walk through it, as it
     * is, and the application's descriptors are in the README as they are, so both can be copied.
     */
    @Test
    void theDocsShowTheScriptAndTheReadmeTheDescriptorsVerbatim() throws IOException {
        Path readme = Path.of(System.getProperty("it.readme", "../README.md")).toAbsolutePath().normalize();
        Path walkThrough = readme.resolveSibling("docs/wildfly-cli.md");
        Set<String> readmeLines = Set.copyOf(Files.readAllLines(readme, StandardCharsets.UTF_8));
        Set<String> walkThroughLines = Set.copyOf(Files.readAllLines(walkThrough, StandardCharsets.UTF_8));
        List<String> missing = new ArrayList<>();
        for (String line : Files.readAllLines(adminScript(), StandardCharsets.UTF_8)) {
            if (!line.isBlank() && !line.startsWith("#") && !walkThroughLines.contains(line)) {
                missing.add(walkThrough.getFileName() + ": " + line);
            }
        }
        for (String descriptor : List.of("jboss-deployment-structure.xml", "jboss-ejb3.xml")) {
            try (var in = getClass().getResourceAsStream("/wildfly-admin/" + descriptor)) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                        .filter(l -> !l.isBlank() && !readmeLines.contains(l)).map(l -> "README.md: " + l)
                        .forEach(missing::add);
            }
        }
        assertTrue(readmeLines.stream().anyMatch(l -> l.contains("](admin/wildfly.cli)")), "README.md links admin/wildfly.cli");
        assertEquals(List.of(), missing, "lines of admin/wildfly.cli or the application's descriptors missing");
    }

    private static Path adminScript() {
        return Path.of(System.getProperty("it.admin.cli", "../admin/wildfly.cli")).toAbsolutePath().normalize();
    }

    /** No ERROR; no WARN from IronJacamar (IJ0...) or the adapter; no other WARN but the accepted ones. */
    private static void assertCleanLog(Path serverLog) throws IOException {
        List<String> complaints = new ArrayList<>();
        List<String> accepted = new ArrayList<>();
        for (String line : Files.readAllLines(serverLog, StandardCharsets.UTF_8)) {
            Matcher m = LOG_RECORD.matcher(line);
            if (!m.matches()) {
                continue;
            }
            boolean error = m.group(1).equals("ERROR");
            boolean ours = m.group(2).startsWith("io.sqlqueue") || line.contains("IJ0");
            if (error || ours || !ACCEPTED_WARNINGS.contains(String.valueOf(m.group(3)).replaceAll(":$", ""))) {
                complaints.add(line);
            } else {
                accepted.add(line);
            }
        }
        accepted.forEach(l -> System.out.println("accepted: " + l));
        assertEquals(List.of(), complaints, "errors or warnings in " + serverLog);
    }

    private static long processed(String status) {
        Matcher m = Pattern.compile("processed=(\\d+)").matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static String get(HttpClient client, URI uri) throws IOException {
        try {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), "GET " + uri + ": " + r.body());
            return r.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
