package io.sqlqueue.verification;

import io.sqlqueue.engine.SqlServerXA;
import io.sqlqueue.engine.TestDatabase;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.verification.TestResults.ClassResult;
import io.sqlqueue.verification.TestResults.Outcome;
import io.sqlqueue.verification.TestResults.Test;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A DBA's proof on their own server (docs/sqlserver-verification.md): the profile verify-sqlserver
 * runs {@code check} before the SqlServer*Test classes and {@code report} after them, both through
 * exec:java in Maven's JVM.
 *
 * <ul>
 * <li>{@code check BASEDIR RESULTS SKIP_TESTS}: refuses a password given as {@code -D}, requires a SQL
 * Server URL and a working login (failing in seconds rather than after every test failed), and
 * removes an earlier run's SqlServer*Test results from RESULTS unless the tests are skipped
 * (SKIP_TESTS {@code true}: a report on earlier results, as CI makes from its main build).
 * <li>{@code report BASEDIR TEST_CLASSES RESULTS REPORT}: reads surefire's results of every SqlServer*Test
 * class in TEST_CLASSES, writes REPORT and prints it, and fails (so the build exits non-zero) when a
 * test failed, a class has no results, or the server could not be identified.
 * </ul>
 *
 * Relative paths are the module's (BASEDIR, adapter/), as in surefire's configuration, whatever
 * directory Maven was started in.
 *
 * The password is read from {@code SQLQUEUE_MSSQL_PASSWORD} only and is never printed; URLs are
 * printed with secret properties masked.
 */
public final class SqlServerVerification {

    /** The names the SQL Server tests give what they create, each with a hexadecimal suffix (System.nanoTime()). */
    static final Pattern TEST_TABLE = Pattern.compile("(t_race|t|tp|hand|in|out|s|a)_[0-9a-f]{8,}(_\\w*)?");
    static final Pattern TEST_SCHEMA = Pattern.compile("(tps|ss|as)_[0-9a-f]{8,}");
    static final Pattern TEST_PRINCIPAL = Pattern.compile("(r|l)_[0-9a-f]{8,}");
    static final String TEST_OBJECTS = "tables named t_, t_race_, tp_, hand_, in_, out_, s_ or a_ with a hexadecimal"
            + " suffix (and their _dlq and _journal tables), schemas tps_, ss_ and as_, a role r_ and a login with its"
            + " user l_, all dropped after each test; rows for their topics in " + Topic.SUBSCRIPTIONS
            + ", the adapter's subscriptions table (created where missing and kept), deleted after each test";

    private static final String SETTINGS = "SQLQUEUE_MSSQL";
    /** Surefire's result file of a SqlServer*Test class: what a run replaces, and nothing else. */
    private static final Pattern OWN_RESULT = Pattern.compile("TEST-.*\\.SqlServer\\w*Test\\.xml");
    /**
     * A JDBC URL property holding a secret (password, trustStorePassword, keyStoreSecret, accessToken
     * and the like) with its value, braced where it contains a semicolon.
     */
    private static final Pattern SECRET = Pattern.compile("(?i)(\\w*(password|secret|token)\\w*=)(\\{[^}]*}|[^;]*)");

    private SqlServerVerification() {
    }

    public static void main(String[] args) throws Exception {
        String verb = args.length < 4 ? "" : args[0];
        Path basedir = Path.of(args.length < 4 ? "." : args[1]);
        switch (verb) {
            case "check" -> check(basedir.resolve(args[2]).normalize(), Boolean.parseBoolean(args[3]));
            case "report" -> report(basedir.resolve(args[2]), basedir.resolve(args[3]).normalize(),
                    basedir.resolve(args[4]));
            default -> throw new IllegalArgumentException("usage: check BASEDIR RESULTS SKIP_TESTS | report BASEDIR"
                    + " TEST_CLASSES RESULTS REPORT");
        }
    }

    // ---- check: before the tests ------------------------------------------------------------------

    private static void check(Path results, boolean reportOnly) throws IOException {
        if (System.getProperty("sqlserver.password") != null
                || SECRET.matcher(System.getProperty("sqlserver.url", "")).find()) {
            throw new IllegalArgumentException("give the password in the environment variable SQLQUEUE_MSSQL_PASSWORD,"
                    + " not as -Dsqlserver.password or in -Dsqlserver.url (a URL with secrets in it can go in"
                    + " SQLQUEUE_MSSQL_URL): a -D value shows in the process list and surefire copies it into its XML"
                    + " reports");
        }
        String[] settings = TestDatabase.settings(SETTINGS);
        if (settings[0] == null || settings[0].isBlank()) {
            throw new IllegalArgumentException("name the server: -Dsqlserver.url='jdbc:sqlserver://HOST:1433;"
                    + "databaseName=DB;encrypt=true' -Dsqlserver.user=LOGIN (or SQLQUEUE_MSSQL_URL and"
                    + " SQLQUEUE_MSSQL_USER), and the password in SQLQUEUE_MSSQL_PASSWORD");
        }
        if (!settings[0].startsWith("jdbc:sqlserver:")) {
            throw new IllegalArgumentException("the URL must start with jdbc:sqlserver:, was " + masked(settings[0]));
        }
        try (Connection c = TestDatabase.sqlServer().connect()) {
            System.out.println("SQL Server verification: " + masked(settings[0]) + " as " + settings[1] + ", "
                    + c.getMetaData().getDatabaseProductName() + " " + c.getMetaData().getDatabaseProductVersion());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + masked(settings[0]) + " as " + settings[1] + ": "
                    + e.getMessage(), e);
        }
        if (!reportOnly && Files.isDirectory(results)) {
            // this run's results only: a class whose JVM dies must not show an earlier run's outcome
            try (Stream<Path> files = Files.list(results)) {
                for (Path old : files.filter(f -> OWN_RESULT.matcher(f.getFileName().toString()).matches()).toList()) {
                    Files.delete(old);
                }
            }
        }
    }

    // ---- report: after the tests ------------------------------------------------------------------

    private static void report(Path testClasses, Path results, Path reportFile) throws IOException {
        List<ClassResult> classes = TestResults.read(results, testClassNames(testClasses));
        String[] settings = TestDatabase.settings(SETTINGS);
        List<String> server = new ArrayList<>();
        List<String> leftovers = new ArrayList<>();
        boolean identified = describeServer(settings, server, leftovers);
        String text = render(masked(settings[0]), server, identified, results, newest(results), classes, leftovers);
        Files.createDirectories(reportFile.toAbsolutePath().getParent());
        Files.writeString(reportFile, text);
        System.out.println();
        System.out.print(text);
        System.out.println("(written to " + reportFile + ")");
        if (!passed(identified, classes)) {
            throw new IllegalStateException("the SQL Server verification FAILED: see " + reportFile);
        }
    }

    /** The SqlServer*Test classes, found among the compiled tests so that a new one is never left out. */
    static List<String> testClassNames(Path testClasses) throws IOException {
        try (Stream<Path> files = Files.walk(testClasses)) {
            return files.map(f -> testClasses.relativize(f).toString().replace('\\', '/'))
                    .filter(f -> f.matches("(.*/)?SqlServer[^/$]*Test\\.class"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.'))
                    .sorted()
                    .toList();
        }
    }

    /**
     * Fills {@code lines} with what the server is, and {@code leftovers} with objects of the kind
     * the tests create that are still there; false when the server could not be reached.
     */
    private static boolean describeServer(String[] settings, List<String> lines, List<String> leftovers) {
        if (settings[0] == null || settings[0].isBlank()) {
            lines.add("Server:                  not configured (no -Dsqlserver.url, no SQLQUEUE_MSSQL_URL)");
            return false;
        }
        try (Connection c = TestDatabase.sqlServer().connect(); Statement s = c.createStatement()) {
            String[] facts = row(s, "SELECT CAST(SERVERPROPERTY('Babelfish') AS int),"
                    + " CAST(SERVERPROPERTY('Edition') AS nvarchar(128)),"
                    + " CAST(SERVERPROPERTY('EngineEdition') AS int),"
                    + " CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)), DB_NAME(), SUSER_SNAME(),"
                    + " SCHEMA_NAME(), CAST(DATABASEPROPERTYEX(DB_NAME(), 'Collation') AS nvarchar(128))");
            boolean babelfish = "1".equals(facts[0]);
            List<String> version = row(s, "SELECT @@VERSION")[0].strip().lines().map(String::strip).toList();
            lines.add("@@VERSION:               " + version.get(0));
            version.stream().skip(1).forEach(l -> lines.add("                         " + l));
            lines.add("Babelfish:               " + (babelfish ? "yes: what needs SQL Server's own locking (READPAST,"
                    + " UPDLOCK, its lock and deadlock errors) or XA is NOT POSSIBLE HERE; run this on a SQL Server"
                    : "no"));
            lines.add("Edition:                 " + facts[1] + " (engine edition " + facts[2] + "), version "
                    + facts[3]);
            lines.add("Azure:                   " + azure(facts[2]));
            lines.add("Database:                " + facts[4] + ", collation " + facts[7]);
            lines.add("READ_COMMITTED_SNAPSHOT: " + orUnknown(s, "SELECT CASE is_read_committed_snapshot_on WHEN 1"
                    + " THEN 'on' ELSE 'off' END FROM sys.databases WHERE name = DB_NAME()"));
            lines.add("Login:                   " + facts[5] + ", default schema " + facts[6] + ", " + orUnknown(s,
                    "SELECT 'sysadmin: ' + CASE IS_SRVROLEMEMBER('sysadmin') WHEN 1 THEN 'yes' ELSE 'no' END"
                            + " + ', db_owner: ' + CASE IS_ROLEMEMBER('db_owner') WHEN 1 THEN 'yes' ELSE 'no' END"));
            String xa = SqlServerXA.unavailableReason(settings);
            lines.add("XA:                      " + (xa == null ? "available (MS DTC and the driver's XA procedures"
                    + " answer): deliveries are tested as XA branches"
                    : "not available, so deliveries are tested one-phase (useXA=false) and the XA tests are NOT"
                            + " POSSIBLE HERE: " + xa));
            leftovers.addAll(leftovers(s));
            return true;
        } catch (SQLException | RuntimeException e) {
            lines.add("Server:                  could not be identified: " + e.getMessage());
            return false;
        }
    }

    private static String azure(String engineEdition) {
        return switch (engineEdition == null ? "" : engineEdition) {
            case "5" -> "yes, Azure SQL Database";
            case "6" -> "yes, Azure Synapse Analytics";
            case "8" -> "yes, Azure SQL Managed Instance";
            case "9" -> "yes, Azure SQL Edge";
            case "11" -> "yes, Azure Synapse serverless SQL pool";
            default -> "no";
        };
    }

    /** Tables, schemas, roles, users and subscription rows named as the tests name theirs: what a run left. */
    private static List<String> leftovers(Statement s) throws SQLException {
        List<String> found = new ArrayList<>();
        List<String> subscriptionTables = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT s.name, t.name FROM sys.tables t JOIN sys.schemas s"
                + " ON s.schema_id = t.schema_id ORDER BY s.name, t.name")) {
            while (rs.next()) {
                String qualified = quoted(rs.getString(1)) + "." + quoted(rs.getString(2));
                if (TEST_TABLE.matcher(rs.getString(2)).matches() || TEST_SCHEMA.matcher(rs.getString(1)).matches()) {
                    found.add("table " + qualified);
                } else if (rs.getString(2).equalsIgnoreCase(Topic.SUBSCRIPTIONS)) {
                    subscriptionTables.add(qualified);
                }
            }
        }
        for (String[] query : new String[][] {{"schema", "SELECT name FROM sys.schemas"},
                {"role or user", "SELECT name FROM sys.database_principals"},
                {"login", "SELECT name FROM sys.server_principals"}}) {
            try (ResultSet rs = s.executeQuery(query[1])) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    if ((query[0].equals("schema") ? TEST_SCHEMA : TEST_PRINCIPAL).matcher(name).matches()) {
                        found.add(query[0] + " " + name);
                    }
                }
            } catch (SQLException e) {
                // a catalog view this login may not read: nothing of it to report
            }
        }
        for (String table : subscriptionTables) {
            try (ResultSet rs = s.executeQuery("SELECT topic, name FROM " + table + " ORDER BY topic, name")) {
                while (rs.next()) {
                    String topic = rs.getString(1).substring(rs.getString(1).lastIndexOf('.') + 1);
                    if (TEST_TABLE.matcher(topic).matches()) {
                        found.add("row in " + table + ": topic " + rs.getString(1) + ", subscription "
                                + rs.getString(2));
                    }
                }
            }
        }
        return found;
    }

    /** A name from the catalog as a T-SQL identifier (any schema a DBA made, brackets and all). */
    private static String quoted(String name) {
        return "[" + name.replace("]", "]]") + "]";
    }

    private static String[] row(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            String[] values = new String[rs.getMetaData().getColumnCount()];
            for (int i = 0; i < values.length; i++) {
                values[i] = rs.getString(i + 1);
            }
            return values;
        }
    }

    /** A fact a login may not be allowed to read (sys.databases of another database, server roles). */
    private static String orUnknown(Statement s, String sql) {
        try {
            return row(s, sql)[0];
        } catch (SQLException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static Instant newest(Path results) throws IOException {
        if (!Files.isDirectory(results)) {
            return null;
        }
        try (Stream<Path> files = Files.list(results)) {
            return files.map(f -> {
                try {
                    return Files.getLastModifiedTime(f).toInstant();
                } catch (IOException e) {
                    return Instant.EPOCH;
                }
            }).max(Instant::compareTo).orElse(null);
        }
    }

    /**
     * Every test that could run here passed, every class has results, the server was identified,
     * and something ran: a run where every test skipped proves nothing.
     */
    static boolean passed(boolean identified, List<ClassResult> classes) {
        return identified && classes.stream().allMatch(c -> c.missing() == null && c.count(Outcome.FAILED) == 0)
                && classes.stream().anyMatch(c -> c.count(Outcome.PASSED) > 0);
    }

    /** The report: the server, then every class's tests, what was left in the database, the totals and the verdict. */
    static String render(String url, List<String> server, boolean identified, Path results, Instant written,
            List<ClassResult> classes, List<String> leftovers) {
        StringBuilder out = new StringBuilder();
        out.append("SQL Server verification of the SQL Queue resource adapter\n");
        out.append("=========================================================\n");
        out.append("Report made:             ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append('\n');
        out.append("Test results:            ").append(results).append(written == null ? ""
                : ", written up to " + written.truncatedTo(ChronoUnit.SECONDS)).append('\n');
        out.append("URL:                     ").append(url).append('\n');
        server.forEach(l -> out.append(l).append('\n'));
        out.append("Objects the tests make:  ").append(TEST_OBJECTS).append('\n');

        long passed = 0;
        long failed = 0;
        long notPossible = 0;
        List<String> failures = new ArrayList<>();
        for (ClassResult c : classes) {
            out.append("\n== ").append(c.simpleName()).append(" (").append(c.className()).append("): ")
                    .append(c.count(Outcome.PASSED)).append(" passed, ").append(c.count(Outcome.FAILED))
                    .append(" failed, ").append(c.count(Outcome.NOT_POSSIBLE)).append(" not possible here\n");
            for (Test t : c.tests()) {
                out.append(String.format(Locale.ROOT, "  %-18s %s", t.outcome().label, t.name()));
                out.append(t.why() == null ? "" : ": " + t.why()).append('\n');
                if (t.outcome() == Outcome.FAILED) {
                    failures.add(c.simpleName() + "." + t.name() + ": " + t.why());
                }
            }
            passed += c.count(Outcome.PASSED);
            failed += c.count(Outcome.FAILED);
            notPossible += c.count(Outcome.NOT_POSSIBLE);
        }

        out.append("\n== Left in the database\n");
        if (!identified) {
            out.append("  unknown: the server could not be reached\n");
        } else if (leftovers.isEmpty()) {
            out.append("  nothing: no table, schema, role, user or subscription named as these tests name theirs\n");
        } else {
            out.append("  named as these tests name theirs (by a run that is still going, or one that was killed):\n");
            leftovers.forEach(l -> out.append("  ").append(l).append('\n'));
        }

        out.append("\n== Totals\n");
        if (!failures.isEmpty()) {
            out.append("Failed:\n");
            failures.forEach(f -> out.append("  ").append(f).append('\n'));
        }
        out.append("Totals: ").append(passed + failed + notPossible).append(" tests, ").append(passed)
                .append(" passed, ").append(failed).append(" failed, ").append(notPossible)
                .append(" not possible here\n");
        out.append("Verdict: ");
        if (passed(identified, classes)) {
            out.append("PASSED: every test that could run on this server passed");
            out.append(notPossible == 0 ? "\n" : " (" + notPossible + " not possible here: see their reasons)\n");
        } else {
            out.append("FAILED: ").append(identified ? "" : "the server could not be identified; ")
                    .append(failed).append(failed == 1 ? " test" : " tests").append(" failed")
                    .append(passed == 0 ? ", none passed\n" : "\n");
        }
        return out.toString();
    }

    /** The URL with every password, secret or token property's value masked. */
    static String masked(String url) {
        return url == null ? null : SECRET.matcher(url).replaceAll("$1****");
    }
}
