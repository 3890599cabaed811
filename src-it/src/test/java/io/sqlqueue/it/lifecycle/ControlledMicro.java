package io.sqlqueue.it.lifecycle;

import fish.payara.micro.BootstrapException;
import fish.payara.micro.PayaraMicro;
import fish.payara.micro.PayaraMicroRuntime;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The main class of the JVM that {@link MicroProcess} forks: boots Payara Micro through its
 * embedding API (the Arquillian connector cannot undeploy and redeploy inside one server) and
 * then obeys the test over a control connection, one command per line:
 * <ul>
 * <li>{@code deploy <name> <context root or -> <file>}: deploys an archive under that name;
 * <li>{@code undeploy <name>}: undeploys it;
 * <li>{@code threads}: the live thread count of this JVM and the names of its threads, with the
 * frames of the adapter or the sample ({@code io.sqlqueue.} outside this test package) they run;
 * <li>{@code log}: the records of loggers under {@code io.sqlqueue} since the last {@code log};
 * <li>{@code consumer <pause|resume|status> <queue>}: calls the adapter's Consumer management
 * beans of that queue and answers one line per bean with its state;
 * <li>{@code exit}: shuts Micro down and ends the JVM.
 * </ul>
 * Each reply is {@code ok} or {@code error <message>}, then data lines, then a line {@code end}.
 * Thread and log inspection must happen here: the test JVM cannot see Micro's threads.
 *
 * <p>Arguments: {@code <control port> <http port> [library jar ...]} (libraries go on the
 * server's class path, as {@code --addlibs} would put them).
 */
public final class ControlledMicro {

    /** Frames of the adapter and the sample; this test package's own code is not theirs. */
    private static final String WATCHED_PACKAGE = "io.sqlqueue.";
    private static final String OWN_PACKAGE = "io.sqlqueue.it.";

    /** Held strongly: a logger only weakly referenced could be collected along with our handler. */
    private static final Logger ADAPTER_LOGGERS = Logger.getLogger("io.sqlqueue");
    private static final ConcurrentLinkedQueue<String> LOG_LINES = new ConcurrentLinkedQueue<>();

    private ControlledMicro() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable t) {
            // Micro's non-daemon threads would keep a JVM whose main failed alive
            t.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws BootstrapException, IOException {
        int controlPort = Integer.parseInt(args[0]);
        int httpPort = Integer.parseInt(args[1]);
        PayaraMicro micro = PayaraMicro.getInstance();
        micro.setHttpPort(httpPort);
        micro.setHttpAutoBind(false);
        micro.setPrintLogo(false);
        micro.setNoHazelcast(true); // not setNoCluster: that still starts Hazelcast (README-harness.md)
        // Only the loopback interface, like the other ITs (their pre-boot file runs the same command).
        micro.setPreBootHandler(commands -> commands.run("set", "configs.config.server-config.network-config"
                + ".network-listeners.network-listener.http-listener.address=127.0.0.1"));
        for (int i = 2; i < args.length; i++) {
            micro.addLibrary(new File(args[i]));
        }
        PayaraMicroRuntime runtime = micro.bootStrap();
        captureAdapterLog();

        try (Socket control = new Socket(InetAddress.getLoopbackAddress(), controlPort);
                BufferedReader in = new BufferedReader(new InputStreamReader(control.getInputStream(),
                        StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(new OutputStreamWriter(control.getOutputStream(),
                        StandardCharsets.UTF_8))) {
            reply(out, "ok", List.of("ready"));
            String line;
            // Ends when the test says exit or its JVM goes away (end of stream): nothing outlives the test.
            while ((line = in.readLine()) != null && !line.equals("exit")) {
                try {
                    reply(out, "ok", execute(runtime, line));
                } catch (RuntimeException e) {
                    reply(out, "error " + oneLine(String.valueOf(e)), List.of());
                }
            }
        } finally {
            shutdown(runtime);
        }
    }

    private static List<String> execute(PayaraMicroRuntime runtime, String command) {
        String[] words = command.split(" ", 4);
        switch (words[0]) {
            case "deploy": {
                String name = words[1];
                File archive = new File(words[3]);
                // "-": no context root, the name is the file's without extension (a .rar's id on Payara)
                boolean deployed = words[2].equals("-") ? runtime.deploy(archive)
                        : runtime.deploy(name, words[2], archive);
                if (!deployed || !runtime.getDeployedApplicationNames().contains(name)) {
                    throw new IllegalStateException("Micro did not deploy " + archive + " as " + name + " (see its log)");
                }
                return List.of(String.join(",", runtime.getDeployedApplicationNames()));
            }
            case "undeploy": {
                runtime.undeploy(words[1]);
                if (runtime.getDeployedApplicationNames().contains(words[1])) {
                    throw new IllegalStateException(words[1] + " is still deployed after undeploy");
                }
                return List.of(String.join(",", runtime.getDeployedApplicationNames()));
            }
            case "threads":
                return threadCensus();
            case "beans":
                return adapterBeans();
            case "consumer":
                return consumers(words[1], words[2]);
            case "log": {
                List<String> lines = new ArrayList<>();
                for (String l; (l = LOG_LINES.poll()) != null; ) {
                    lines.add(l);
                }
                return lines;
            }
            default:
                throw new IllegalArgumentException("unknown command '" + command + "'");
        }
    }

    /** The names of the adapter's management beans now registered ({@code io.sqlqueue:*}). */
    private static List<String> adapterBeans() {
        try {
            List<String> names = new ArrayList<>();
            for (ObjectName n : ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("io.sqlqueue:*"), null)) {
                names.add(n.toString());
            }
            return names;
        } catch (JMException e) {
            throw new IllegalStateException("cannot list the adapter's beans: " + e, e);
        }
    }

    /**
     * Invokes {@code pause} or {@code resume} (or nothing, for {@code status}) on the adapter's
     * Consumer beans of {@code queue} ({@code io.sqlqueue:type=Consumer,queue=…}); answers
     * {@code <name> paused=<bool> inFlight=<messages in the bean's hands> polls=<queries so far>} for each.
     */
    private static List<String> consumers(String operation, String queue) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName("io.sqlqueue:type=Consumer,queue=" + queue + ",*"), null);
            if (names.isEmpty()) {
                throw new IllegalStateException("no consumer of " + queue + " is registered");
            }
            List<String> lines = new ArrayList<>();
            for (ObjectName name : names) {
                if (!operation.equals("status")) {
                    server.invoke(name, operation, null, null);
                }
                lines.add(name + " paused=" + server.getAttribute(name, "Paused") + " inFlight="
                        + server.getAttribute(name, "InFlight") + " polls=" + server.getAttribute(name, "Polls"));
            }
            return lines;
        } catch (JMException e) {
            throw new IllegalStateException(operation + " on the consumers of " + queue + ": " + e, e);
        }
    }

    /**
     * First line: {@code total=<live threads>}; then one line per thread: its name, and for a
     * thread running adapter or sample code {@code | <outermost such frame> | <innermost such frame>}
     * (the work it runs, e.g. {@code Delivery.run}, and where it is in it).
     */
    private static List<String> threadCensus() {
        List<String> lines = new ArrayList<>();
        lines.add("total=" + ManagementFactory.getThreadMXBean().getThreadCount());
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            StackTraceElement innermost = null, outermost = null;
            for (StackTraceElement frame : e.getValue()) {
                String cls = frame.getClassName();
                if (cls.startsWith(WATCHED_PACKAGE) && !cls.startsWith(OWN_PACKAGE)) {
                    innermost = innermost == null ? frame : innermost;
                    outermost = frame;
                }
            }
            String name = oneLine(e.getKey().getName()).replace('|', '/');
            lines.add(innermost == null ? name : name + " | " + outermost + " | " + innermost);
        }
        return lines;
    }

    /** Records of the adapter's (and sample's) loggers, as {@code LEVEL | millis | logger | message}. */
    private static void captureAdapterLog() {
        SimpleFormatter formatter = new SimpleFormatter();
        ADAPTER_LOGGERS.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                LOG_LINES.add(record.getLevel() + " | " + record.getMillis() + " | " + record.getLoggerName() + " | "
                        + oneLine(formatter.formatMessage(record)));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        ADAPTER_LOGGERS.setLevel(Level.INFO); // "the database ... is reachable again" is an INFO record
    }

    private static void reply(PrintWriter out, String status, List<String> lines) {
        StringBuilder b = new StringBuilder(status).append('\n');
        for (String l : lines) {
            b.append(oneLine(l)).append('\n');
        }
        out.print(b.append("end\n"));
        out.flush();
    }

    private static String oneLine(String s) {
        return String.valueOf(s).replace('\r', ' ').replace('\n', ' ');
    }

    private static void shutdown(PayaraMicroRuntime runtime) {
        try {
            runtime.shutdown();
        } catch (BootstrapException e) {
            System.err.println("Micro did not shut down cleanly: " + e);
        } finally {
            System.exit(0); // pool and timer threads of the server must not keep this JVM alive
        }
    }
}
