package io.sqlqueue.it.lifecycle;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A Payara Micro JVM forked for the lifecycle tests, running {@link ControlledMicro}: the test
 * deploys, undeploys and inspects threads and the adapter's log through this handle. Micro's
 * output is copied, line by line, to this JVM's standard output (failsafe keeps it in
 * {@code target/failsafe-reports/<class>-output.txt}). {@link #close()} ends the JVM, by force
 * if it does not exit by itself.
 */
final class MicroProcess implements AutoCloseable {

    /**
     * One thread census of the Micro JVM: the live thread count and a line per thread, its name
     * followed, for a thread in adapter or sample code, by {@code | <outermost> | <innermost frame>}.
     */
    record Census(int liveThreads, List<String> threads) {

        List<String> adapterThreads() {
            return threads.stream().filter(t -> t.contains(" | ")).collect(Collectors.toList());
        }

        /** Threads whose adapter or sample frames include this one, e.g. {@code Delivery.run}. */
        long threadsIn(String frame) {
            return adapterThreads().stream().filter(t -> t.contains(frame)).count();
        }

        /** The threads of this census whose names {@code pools} does not match. */
        int threadsOutside(Pattern pools) {
            return (int) threads.stream().filter(t -> !pools.matcher(t.split(" \\| ", 2)[0]).matches()).count();
        }

        /** Thread names (numbers replaced by #) more frequent here than in {@code earlier}, with the growth. */
        Map<String, Long> growthSince(Census earlier) {
            Map<String, Long> growth = new TreeMap<>(kinds());
            earlier.kinds().forEach((kind, n) -> growth.merge(kind, -n, Long::sum));
            growth.values().removeIf(n -> n <= 0);
            return growth;
        }

        private Map<String, Long> kinds() {
            return threads.stream().map(t -> t.split(" \\| ", 2)[0].replaceAll("\\d+", "#"))
                    .collect(Collectors.groupingBy(k -> k, TreeMap::new, Collectors.counting()));
        }
    }

    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(3);

    private final Process process;
    private final Socket control;
    private final BufferedReader replies;
    private final PrintWriter commands;
    private final int httpPort;

    private MicroProcess(Process process, Socket control, int httpPort) throws IOException {
        this.process = process;
        this.control = control;
        this.httpPort = httpPort;
        this.replies = new BufferedReader(new InputStreamReader(control.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintWriter(new OutputStreamWriter(control.getOutputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Forks the JVM and waits until Micro has booted (it then connects back to us).
     *
     * @param environment added to (and overriding) this JVM's environment: the sample's SQLQUEUE_SAMPLE_* variables
     * @param libraries   jars for the server's class path (a JDBC driver)
     */
    static MicroProcess start(File microJar, File tmpDir, Map<String, String> environment, List<File> libraries,
            Duration bootTimeout) throws IOException, InterruptedException {
        // C1 only: Micro boots in half the time (README-harness.md); the tests are not about speed
        return start(microJar, tmpDir, environment, libraries, bootTimeout, List.of("-Xmx768m", "-XX:TieredStopAtLevel=1"));
    }

    /** The same with these JVM options instead of the tests' (a benchmark's: the full JIT). */
    static MicroProcess start(File microJar, File tmpDir, Map<String, String> environment, List<File> libraries,
            Duration bootTimeout, List<String> jvmOptions) throws IOException, InterruptedException {
        int httpPort = freePort();
        try (ServerSocket controlListener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<String> command = new ArrayList<>(List.of(new File(System.getProperty("java.home"), "bin/java").getPath()));
            command.addAll(jvmOptions);
            command.addAll(List.of("-Djava.io.tmpdir=" + tmpDir.getAbsolutePath(), "-Dpayaramicro.disablePhoneHome=true"));
            command.addAll(moduleOptions(microJar));
            command.addAll(List.of("-cp", microJar.getAbsolutePath() + File.pathSeparator + ownClassPath(),
                    ControlledMicro.class.getName(),
                    String.valueOf(controlListener.getLocalPort()), String.valueOf(httpPort)));
            libraries.forEach(l -> command.add(l.getAbsolutePath()));

            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(environment);
            Process process = builder.start();
            copyOutput(process);
            try {
                Socket control = awaitConnection(controlListener, process, bootTimeout);
                control.setSoTimeout((int) COMMAND_TIMEOUT.toMillis());
                MicroProcess micro = new MicroProcess(process, control, httpPort);
                micro.readReply("boot");
                return micro;
            } catch (IOException | RuntimeException e) {
                kill(process);
                throw e;
            }
        }
    }

    int httpPort() {
        return httpPort;
    }

    /** Deploys a .rar under its file name (its resource adapter id on Payara). */
    void deployAdapter(File rar) throws IOException {
        String name = rar.getName().replaceFirst("\\.rar$", "");
        command("deploy " + name + " - " + rar.getAbsolutePath());
    }

    void deployWar(String name, File war) throws IOException {
        command("deploy " + name + " " + name + " " + war.getAbsolutePath());
    }

    void undeploy(String name) throws IOException {
        command("undeploy " + name);
    }

    /**
     * Calls the adapter's Consumer management beans of {@code queue}: {@code pause}, {@code resume}
     * or {@code status}; returns one line per bean, {@code <name> paused=<bool> inFlight=<n> polls=<n>}.
     */
    List<String> consumers(String operation, String queue) throws IOException {
        return command("consumer " + operation + " " + queue);
    }

    /** The adapter's management beans registered in Micro now. */
    List<String> adapterBeans() throws IOException {
        return command("beans");
    }

    Census threads() throws IOException {
        List<String> lines = command("threads");
        return new Census(Integer.parseInt(lines.get(0).substring("total=".length())),
                List.copyOf(lines.subList(1, lines.size())));
    }

    /** The adapter's log records since the last call, as {@code LEVEL | millis | logger | message}. */
    List<String> takeLog() throws IOException {
        return command("log");
    }

    /**
     * Waits until the JVM ends by itself (a bean halted it) and returns its exit status; fails
     * when it is still running after {@code timeout}.
     */
    int awaitExit(Duration timeout) throws InterruptedException, IOException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("Micro is still running after " + timeout);
        }
        control.close();
        return process.exitValue();
    }

    /** The forked JVM's process id: what a lease it holds names before the host ({@code pid@host}). */
    long pid() {
        return process.pid();
    }

    /**
     * Kills the JVM on the spot, as {@code kill -9} does (SIGKILL: no shutdown hook, nothing
     * rolled back or given back by the server), and returns its exit status once it is gone.
     */
    int killForcibly(Duration timeout) throws InterruptedException, IOException {
        process.destroyForcibly();
        return awaitExit(timeout);
    }

    /** Asks Micro to shut down, then makes sure the JVM is gone. */
    @Override
    public void close() throws InterruptedException {
        try {
            commands.println("exit");
            commands.flush();
        } catch (RuntimeException ignored) {
            // the control connection is already gone
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            kill(process);
        }
        try {
            control.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }

    private synchronized List<String> command(String line) throws IOException {
        commands.println(line);
        commands.flush();
        return readReply(line);
    }

    private List<String> readReply(String command) throws IOException {
        String status = replies.readLine();
        List<String> lines = new ArrayList<>();
        for (String l; (l = replies.readLine()) != null && !l.equals("end"); ) {
            lines.add(l);
        }
        if (status == null) {
            throw new IOException("Micro closed the control connection during '" + command + "' (alive: "
                    + process.isAlive() + "; see its output)");
        }
        if (!status.equals("ok")) {
            throw new IllegalStateException("'" + command + "' failed in Micro: " + status);
        }
        return lines;
    }

    private static Socket awaitConnection(ServerSocket listener, Process process, Duration timeout)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        listener.setSoTimeout(1000);
        while (true) {
            try {
                return listener.accept();
            } catch (SocketTimeoutException e) {
                if (!process.isAlive()) {
                    throw new IOException("the Micro JVM exited with " + process.exitValue() + " while booting");
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("Micro did not boot within " + timeout);
                }
            }
        }
    }

    /** Micro's manifest opens JDK packages for {@code java -jar}; with {@code -cp} they go on the command line. */
    private static List<String> moduleOptions(File microJar) throws IOException {
        List<String> options = new ArrayList<>();
        try (JarFile jar = new JarFile(microJar)) {
            Attributes main = jar.getManifest().getMainAttributes();
            for (String kind : new String[] {"Add-Opens", "Add-Exports"}) {
                String packages = main.getValue(kind);
                if (packages != null) {
                    for (String p : packages.trim().split("\\s+")) {
                        options.add("--" + kind.toLowerCase() + "=" + p + "=ALL-UNNAMED");
                    }
                }
            }
        }
        return options;
    }

    /** The directory (or jar) holding this test code, so the forked JVM finds {@link ControlledMicro}. */
    private static String ownClassPath() {
        try {
            return new File(ControlledMicro.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void copyOutput(Process process) {
        Thread t = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    System.out.println("[micro] " + line);
                }
            } catch (IOException ended) {
                // the process is gone
            }
        }, "micro-output");
        t.setDaemon(true);
        t.start();
    }

    private static void kill(Process process) throws InterruptedException {
        process.destroy(); // SIGTERM: Micro's shutdown hook removes its runtime directory
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A directory of its own under the tests' temporary directory, for a forked server's files. */
    static File workDirectory(String name) {
        File dir = new File(System.getProperty("java.io.tmpdir"), name);
        if (!dir.isDirectory() && !dir.mkdirs()) {
            throw new IllegalStateException("cannot create " + dir);
        }
        return dir;
    }

    /**
     * Writes {@code <name>.war} with these classes into {@code dir}. They are on the forked
     * server's class path too (it runs with the tests' class path): the WAR loads its own first.
     */
    static File exportWar(File dir, String name, Class<?>... classes) {
        return exportWar(dir, ShrinkWrap.create(WebArchive.class, name + ".war").addClasses(classes));
    }

    /** Writes {@code war} into {@code dir}, loading its own classes first (as above). */
    static File exportWar(File dir, WebArchive war) {
        File file = new File(dir, war.getName());
        war.addAsWebInfResource(new StringAsset("<glassfish-web-app><class-loader delegate=\"false\"/>"
                        + "</glassfish-web-app>"), "glassfish-web.xml")
                .as(ZipExporter.class).exportTo(file, true);
        return file;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
