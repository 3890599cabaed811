package io.sqlqueue.it.wildfly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.it.harness.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A fresh WildFly of a test's own: standalone-full from the unpacked distribution, on a copy of
 * its standalone/ directory under the test's work directory (without the log, data and tmp that
 * other runs left in the distribution's), every interface on 127.0.0.1 with a port offset, run by
 * bin/standalone.sh with this JVM's Java and the JVM options of bin/standalone.conf (-Xms64m
 * -Xmx512m, full JIT). jboss-cli runs against its management port; {@link #close} stops the
 * whole process tree if {@link #shutdown} did not.
 */
public final class WildFlyStandalone implements AutoCloseable {

    private final Path home;
    private final Path base;
    private final Path console;
    private final int offset;
    private final Process process;

    private WildFlyStandalone(Path home, Path base, Path console, int offset, Process process) {
        this.home = home;
        this.base = base;
        this.console = console;
        this.offset = offset;
        this.process = process;
    }

    /**
     * Copies standalone/ to {@code work/standalone} (replacing an earlier copy), starts the server
     * and returns once it has started without errors; its console output goes to {@code work/console.log}.
     */
    public static WildFlyStandalone start(Path home, Path work, int offset, Duration patience) throws Exception {
        for (int port : List.of(8080 + offset, 9990 + offset, 8443 + offset, 9993 + offset)) {
            assertTrue(free(port), "port " + port + " (WildFly's port offset " + offset + ") is in use on 127.0.0.1");
        }
        Path base = work.resolve("standalone");
        deleteTree(base);
        copyTree(home.resolve("standalone"), base);
        for (String used : new String[] {"log", "data", "tmp", "configuration/standalone_xml_history"}) {
            deleteTree(base.resolve(used));
        }
        Path console = work.resolve("console.log");
        ProcessBuilder pb = new ProcessBuilder("sh", home.resolve("bin/standalone.sh").toString(),
                "-c", "standalone-full.xml", "-Djboss.server.base.dir=" + base,
                "-b", "127.0.0.1", "-bmanagement", "127.0.0.1", "-Djboss.socket.binding.port-offset=" + offset)
                .redirectErrorStream(true).redirectOutput(console.toFile());
        environment(pb);
        WildFlyStandalone server = new WildFlyStandalone(home, base, console, offset, pb.start());
        try {
            server.await("WildFly has started", patience,
                    () -> server.logContains("WFLYSRV0025") || server.logContains("WFLYSRV0026"));
            assertTrue(server.logContains("WFLYSRV0025"), "WildFly started with errors, see " + server.serverLog());
            return server;
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    /** This JVM's Java, and standalone.conf's own JVM options rather than a caller's JAVA_OPTS. */
    private static void environment(ProcessBuilder pb) {
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("JAVA_OPTS");
    }

    public int httpPort() {
        return 8080 + offset;
    }

    public int managementPort() {
        return 9990 + offset;
    }

    /** The server's base directory, the copy of standalone/. */
    public Path base() {
        return base;
    }

    public Path serverLog() {
        return base.resolve("log/server.log");
    }

    public boolean logContains(String text) throws IOException {
        Path log = serverLog();
        return Files.exists(log) && Files.readString(log, StandardCharsets.ISO_8859_1).contains(text);
    }

    /** Waits until {@code condition} holds, failing at once if WildFly stops meanwhile. */
    public void await(String what, Duration patience, Callable<Boolean> condition) throws Exception {
        Await.until(what, patience, () -> {
            assertTrue(process.isAlive(), "WildFly stopped; see " + console);
            return condition.call();
        });
    }

    /**
     * Runs jboss-cli against the server, its output appended to {@code output}; fails on a
     * non-zero exit or any failed operation.
     */
    public void cli(Path output, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", home.resolve("bin/jboss-cli.sh").toString(), "--connect",
                "--controller=127.0.0.1:" + managementPort()));
        command.addAll(List.of(arguments));
        long before = Files.exists(output) ? Files.size(output) : 0;
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        environment(pb);
        Process cli = pb.start();
        try {
            assertTrue(cli.waitFor(3, TimeUnit.MINUTES), "jboss-cli did not finish: " + command);
        } finally {
            cli.destroyForcibly();
        }
        String all = Files.readString(output, StandardCharsets.ISO_8859_1);
        String text = all.substring((int) Math.min(before, all.length()));
        assertEquals(0, cli.exitValue(), "jboss-cli " + List.of(arguments) + " failed:\n" + text);
        assertTrue(!text.contains("\"outcome\" => \"failed\""), "an operation failed:\n" + text);
    }

    /** A clean shutdown by jboss-cli, so that the log covers every service's stop. */
    public void shutdown(Path output) throws Exception {
        cli(output, "--command=:shutdown");
        assertTrue(process.waitFor(1, TimeUnit.MINUTES), "WildFly did not shut down");
    }

    /** standalone.sh starts the server's JVM as a child: stop the whole tree (SIGTERM, then SIGKILL). */
    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.forEach(ProcessHandle::destroy);
        process.destroy();
        for (ProcessHandle p : tree) {
            p.onExit().completeOnTimeout(p, 30, TimeUnit.SECONDS).join();
            p.destroyForcibly();
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
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

    /** Deletes a directory and everything in it, if it exists. */
    public static void deleteTree(Path dir) throws IOException {
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
}
