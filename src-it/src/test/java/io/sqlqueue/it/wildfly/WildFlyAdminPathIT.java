package io.sqlqueue.it.wildfly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.wildfly.app.AdminPathListener;
import io.sqlqueue.it.wildfly.app.AdminPathServlet;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
        int http = 8080 + offset;
        int management = 9990 + offset;
        assertTrue(Files.isDirectory(home.resolve("bin")), "WildFly is not unpacked at " + home);
        assertTrue(Files.isRegularFile(rar), "the adapter is not built: " + rar);
        for (int port : List.of(http, management, 8443 + offset, 9993 + offset)) {
            assertTrue(free(port), "port " + port + " (WildFly's port offset " + offset + ") is in use on 127.0.0.1");
        }

        // a fresh server: a copy of the distribution's standalone/ directory
        Path work = Path.of("target/wildfly-admin-path").toAbsolutePath().normalize();
        deleteTree(work);
        Path base = work.resolve("standalone");
        copyTree(home.resolve("standalone"), base);
        // without what the Arquillian executions left there (their log holds "started" lines already)
        for (String used : new String[] {"log", "data", "tmp", "configuration/standalone_xml_history"}) {
            deleteTree(base.resolve(used));
        }
        Path serverLog = base.resolve("log/server.log");
        Path console = work.resolve("console.log");

        long t0 = System.nanoTime();
        Process server = new ProcessBuilder("sh", home.resolve("bin/standalone.sh").toString(),
                "-c", "standalone-full.xml", "-Djboss.server.base.dir=" + base,
                "-b", "127.0.0.1", "-bmanagement", "127.0.0.1", "-Djboss.socket.binding.port-offset=" + offset)
                .redirectErrorStream(true).redirectOutput(console.toFile()).start();
        try {
            await("WildFly has started", BOOT, server, console, () -> contains(serverLog, "WFLYSRV0025")
                    || contains(serverLog, "WFLYSRV0026"));
            assertTrue(contains(serverLog, "WFLYSRV0025"), "WildFly started with errors, see " + serverLog);
            long booted = System.nanoTime();

            // the administrator's script, unchanged
            cli(home, management, work.resolve("cli-admin.log"), "--file=" + script, "-Dsqlqueue.rar=" + rar);
            long configured = System.nanoTime();

            File war = work.resolve("admin-path.war").toFile();
            ShrinkWrap.create(WebArchive.class, "admin-path.war")
                    .addClasses(AdminPathListener.class, AdminPathServlet.class)
                    .addAsWebInfResource("wildfly-admin/jboss-deployment-structure.xml", "jboss-deployment-structure.xml")
                    .addAsWebInfResource("wildfly-admin/jboss-ejb3.xml", "jboss-ejb3.xml")
                    .as(ZipExporter.class).exportTo(war, true);
            cli(home, management, work.resolve("cli-deploy.log"), "--command=deploy " + war);
            long deployed = System.nanoTime();

            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            URI endpoint = URI.create("http://127.0.0.1:" + http + "/admin-path/queue");
            HttpResponse<String> sent = client.send(HttpRequest.newBuilder(URI.create(endpoint + "?count=" + MESSAGES))
                    .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(1)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sent.statusCode(), "sending failed: " + sent.body());
            // with the queue empty no delivery is left to come: the counts are final
            String expected = "processed=" + MESSAGES + " distinct=" + MESSAGES + " queued=0";
            await(MESSAGES + " messages are processed and the queue is empty", PROCESSING, server, console, () -> {
                String status = get(client, endpoint);
                return status.endsWith(" queued=0") && processed(status) >= MESSAGES;
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
            cli(home, management, work.resolve("cli-shutdown.log"), "--command=:shutdown");
            assertTrue(server.waitFor(1, TimeUnit.MINUTES), "WildFly did not shut down");
            long stopped = System.nanoTime();
            assertCleanLog(serverLog);
            System.out.printf("WildFlyAdminPathIT: boot %d ms, admin script %d ms, application deployed in %d ms,"
                    + " %d messages processed in %d ms, shutdown %d ms%n", ms(booted - t0), ms(configured - booted),
                    ms(deployed - configured), MESSAGES, ms(processed - deployed), ms(stopped - processed));
        } finally {
            stop(server);
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

    /** Runs jboss-cli against the server; fails on a non-zero exit or any failed operation. */
    private static void cli(Path home, int managementPort, Path output, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", home.resolve("bin/jboss-cli.sh").toString(), "--connect",
                "--controller=127.0.0.1:" + managementPort));
        command.addAll(List.of(arguments));
        Process cli = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertTrue(cli.waitFor(3, TimeUnit.MINUTES), "jboss-cli did not finish: " + command);
        } finally {
            cli.destroyForcibly();
        }
        String text = Files.readString(output);
        assertEquals(0, cli.exitValue(), "jboss-cli " + List.of(arguments) + " failed:\n" + text);
        assertTrue(!text.contains("\"outcome\" => \"failed\""), "an operation failed:\n" + text);
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

    private static boolean contains(Path file, String text) throws IOException {
        return Files.exists(file) && Files.readString(file, StandardCharsets.ISO_8859_1).contains(text);
    }

    /** Waits until {@code condition} holds, failing at once if WildFly stops meanwhile. */
    private static void await(String what, Duration patience, Process server, Path console, Callable<Boolean> condition)
            throws Exception {
        Await.until(what, patience, () -> {
            assertTrue(server.isAlive(), "WildFly stopped; see " + console);
            return condition.call();
        });
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /** standalone.sh starts the server's JVM as a child: stop the whole tree (SIGTERM, then SIGKILL). */
    private static void stop(Process server) throws InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>(server.descendants().toList());
        tree.forEach(ProcessHandle::destroy);
        server.destroy();
        for (ProcessHandle p : tree) {
            p.onExit().completeOnTimeout(p, 30, TimeUnit.SECONDS).join();
            p.destroyForcibly();
        }
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly();
        }
    }
}
