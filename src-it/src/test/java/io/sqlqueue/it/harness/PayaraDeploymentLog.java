package io.sqlqueue.it.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fails the build when Payara Server logged a warning or an error of the adapter or of the
 * connector runtime while it deployed a test application. Run after the tests on the domain's
 * server.log and its rotated parts ({@code payara-server} profile of src-it/pom.xml). Only
 * deployments are checked: at run time the tests provoke warnings on purpose (beans that fail,
 * dead letters, wrong passwords).
 *
 * <p>A deployment is the span Payara reports itself: "{@code <app> was successfully deployed in N
 * milliseconds}" ends it, and it began N milliseconds before. A deployment that fails makes its
 * tests fail, so it needs no check here.
 */
public final class PayaraDeploymentLog {

    /**
     * The first line of a record in Payara's (ODL) format; the message follows on the next lines:
     * {@code [2026-11-21T21:07:19.435+0000] [Payara 6.2025.10] [WARNING] [] [logger] [tid: ...]
     * [timeMillis: 1795295239435] [levelValue: 900] [[}
     */
    private static final Pattern RECORD = Pattern.compile(
            "^\\[[^\\]]*\\] \\[[^\\]]*\\] \\[(\\w+)\\] \\[[^\\]]*\\] \\[([^\\]]*)\\] \\[tid: [^\\]]*\\] \\[timeMillis: (\\d+)\\]");

    private static final Pattern DEPLOYED = Pattern.compile("(\\S+) was successfully deployed in ([\\d,.]+) milliseconds");

    /** Our adapter's loggers and the connector runtime's (RAR messages, JDBC pools, MDB binding). */
    private static final Pattern ADAPTER_OR_CONNECTORS = Pattern.compile("^io\\.sqlqueue\\.|\\.resourceadapter\\.|\\.ejb\\.mdb");

    private record LogRecord(String level, String logger, long millis, String text) {
        boolean isWarningOrWorse() {
            return level.equals("WARNING") || level.equals("SEVERE");
        }
    }

    private record Deployment(String app, long start, long end) {
        boolean spans(LogRecord r) {
            return r.millis() >= start && r.millis() <= end;
        }
    }

    public static void main(String[] args) throws IOException {
        Path log = Path.of(args[0]);
        if (!Files.exists(log)) {
            System.out.println("No Payara Server log at " + log + " (tests not run): nothing to check");
            return;
        }
        List<LogRecord> records = new ArrayList<>();
        for (Path part : parts(log)) {
            records.addAll(read(part));
        }
        List<Deployment> deployments = new ArrayList<>();
        for (LogRecord r : records) {
            Matcher m = DEPLOYED.matcher(r.text());
            if (m.find()) {
                long millis = Long.parseLong(m.group(2).replaceAll("\\D", ""));
                deployments.add(new Deployment(m.group(1), r.millis() - millis, r.millis()));
            }
        }
        if (deployments.isEmpty()) {
            throw new IllegalStateException(log + " reports no successful deployment: has its format changed?");
        }
        List<String> offending = new ArrayList<>();
        for (LogRecord r : records) {
            if (r.isWarningOrWorse() && ADAPTER_OR_CONNECTORS.matcher(r.logger()).find()) {
                for (Deployment d : deployments) {
                    if (d.spans(r)) {
                        offending.add("while deploying " + d.app() + ": " + r.text());
                    }
                }
            }
        }
        if (!offending.isEmpty()) {
            throw new IllegalStateException("Payara Server logged warnings of the adapter or the connector runtime"
                    + " while deploying (" + log + "):\n" + String.join("\n", offending));
        }
        System.out.println("Payara Server deployed " + deployments.size() + " applications without a warning"
                + " of the adapter or the connector runtime");
    }

    /**
     * The log and what Payara rotated out of it ({@code server.log_<time>}, at 2 MB: twenty
     * redeployments fill more), oldest first.
     */
    private static List<Path> parts(Path log) throws IOException {
        List<Path> parts = new ArrayList<>();
        try (var siblings = Files.list(log.getParent())) {
            siblings.filter(p -> p.getFileName().toString().startsWith(log.getFileName() + "_")).sorted()
                    .forEach(parts::add);
        }
        parts.add(log);
        return parts;
    }

    private static List<LogRecord> read(Path log) throws IOException {
        List<LogRecord> records = new ArrayList<>();
        Matcher header = null;
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(log)) {
            Matcher m = RECORD.matcher(line);
            if (m.find()) {
                add(records, header, text);
                header = m;
                text.setLength(0);
            }
            text.append(line).append('\n');
        }
        add(records, header, text);
        return records;
    }

    private static void add(List<LogRecord> records, Matcher header, StringBuilder text) {
        if (header != null) {
            records.add(new LogRecord(header.group(1), header.group(2), Long.parseLong(header.group(3)), text.toString().strip()));
        }
    }
}
