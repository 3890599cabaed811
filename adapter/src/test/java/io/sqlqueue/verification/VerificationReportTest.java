package io.sqlqueue.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL Server verification's report, made from surefire result files written here in the
 * shapes surefire 3.5 writes them (a pass, an assertion failure, an exception, an assumption).
 * No database: the server's part of the report is given.
 */
class VerificationReportTest {

    @TempDir
    Path results;

    private void write(String className, String testcases) throws IOException {
        Files.writeString(results.resolve("TEST-" + className + ".xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite name="%s" tests="4">
                  <properties><property name="java.version" value="17"/></properties>
                %s
                </testsuite>
                """.formatted(className, testcases));
    }

    /** A pass, an assertion's failure, an exception and an assumption, with and without a message attribute. */
    private static final String ALL_FOUR = """
              <testcase name="passes" classname="x" time="0.1"/>
              <testcase name="assertsWrongly" classname="x" time="0.1">
                <failure message="expected: &lt;1&gt; but was: &lt;2&gt;" type="org.opentest4j.AssertionFailedError">
            <![CDATA[org.opentest4j.AssertionFailedError: expected: <1> but was: <2>
                at x.y(X.java:1)]]></failure>
              </testcase>
              <testcase name="throws" classname="x" time="0.1">
                <error type="com.microsoft.sqlserver.jdbc.SQLServerException">
            <![CDATA[com.microsoft.sqlserver.jdbc.SQLServerException: Invalid object name 'q'.
                at x.y(X.java:1)]]></error>
              </testcase>
              <testcase name="needsReadpast" classname="x" time="0.0">
                <skipped type="org.opentest4j.TestAbortedException">
            <![CDATA[org.opentest4j.TestAbortedException: Assumption failed: Babelfish ignores READPAST: only SQL Server
                at x.y(X.java:1)]]></skipped>
              </testcase>
            """;
    private static final List<String> TWO_CLASSES = List.of("a.SqlServerOneTest", "b.SqlServerTwoTest");

    @Test
    void everyOutcomeIsReadWithTheFirstLineOfWhy() throws IOException {
        write("a.SqlServerOneTest", ALL_FOUR);
        List<TestResults.ClassResult> read = TestResults.read(results, List.of("a.SqlServerOneTest"));
        assertEquals(List.of(
                new TestResults.Test("passes", TestResults.Outcome.PASSED, null),
                new TestResults.Test("assertsWrongly", TestResults.Outcome.FAILED, "expected: <1> but was: <2>"),
                new TestResults.Test("throws", TestResults.Outcome.FAILED,
                        "SQLServerException: Invalid object name 'q'."),
                new TestResults.Test("needsReadpast", TestResults.Outcome.NOT_POSSIBLE,
                        "Babelfish ignores READPAST: only SQL Server")),
                read.get(0).tests());
    }

    @Test
    void aFailureOrAClassWithoutResultsFailsTheVerdictAndTheTotalsAddUp() throws IOException {
        write("a.SqlServerOneTest", ALL_FOUR);
        List<TestResults.ClassResult> read = TestResults.read(results, TWO_CLASSES);
        String report = SqlServerVerification.render("jdbc:sqlserver://h", List.of("Babelfish:               no"), true,
                results, Instant.now(), read, List.of());

        assertTrue(report.contains("\n== SqlServerOneTest (a.SqlServerOneTest): 1 passed, 2 failed, 1 not possible"
                + " here\n"), report);
        assertTrue(report.contains("\n  NOT POSSIBLE HERE  needsReadpast: Babelfish ignores READPAST"), report);
        assertTrue(report.contains("\n  FAILED             (the whole class): no results in "), report);
        assertTrue(report.contains("\nTotals: 5 tests, 1 passed, 3 failed, 1 not possible here\n"), report);
        assertTrue(report.contains("\nVerdict: FAILED: 3 tests failed\n"), report);
        assertFalse(SqlServerVerification.passed(true, read));
    }

    @Test
    void skippedTestsAreNeverCountedAsPassedAndARunWhereNothingRanFails() throws IOException {
        write("a.SqlServerOneTest", """
                  <testcase name="passes" classname="x" time="0.1"/>
                  <testcase name="disabled" classname="x"><skipped message="void disabled() is @Disabled"/></testcase>
                """);
        write("b.SqlServerTwoTest", """
                  <testcase name="skips" classname="x"><skipped message="SQLQUEUE_MSSQL_URL is not set"/></testcase>
                """);
        List<TestResults.ClassResult> both = TestResults.read(results, TWO_CLASSES);
        String report = SqlServerVerification.render("u", List.of(), true, results, null, both, List.of());
        assertTrue(report.contains("\nTotals: 3 tests, 1 passed, 0 failed, 2 not possible here\n"), report);
        assertTrue(report.contains("\nVerdict: PASSED: every test that could run on this server passed (2 not possible"
                + " here: see their reasons)\n"), report);

        List<TestResults.ClassResult> skippedOnly = TestResults.read(results, List.of("b.SqlServerTwoTest"));
        assertFalse(SqlServerVerification.passed(true, skippedOnly), "every test skipped proves nothing");
        assertFalse(SqlServerVerification.passed(false, both), "an unidentified server proves nothing");
    }

    @Test
    void secretsInTheUrlAreMasked() {
        assertEquals("jdbc:sqlserver://h:1433;databaseName=q;password=****;trustStorePassword=****;accessToken=****",
                SqlServerVerification.masked("jdbc:sqlserver://h:1433;databaseName=q;password={s3c;ret};"
                        + "trustStorePassword=x;accessToken=y"));
    }

    @Test
    void theTestClassesAreFoundAmongTheCompiledOnes(@TempDir Path classes) throws IOException {
        for (String f : new String[] {"io/x/SqlServerQueueTest.class", "io/x/SqlServerQueueTest$1.class",
                "io/y/SqlServerInboundTest.class", "io/x/H2QueueTest.class", "io/x/SqlServerXA.class"}) {
            Files.createDirectories(classes.resolve(f).getParent());
            Files.writeString(classes.resolve(f), "");
        }
        assertEquals(List.of("io.x.SqlServerQueueTest", "io.y.SqlServerInboundTest"),
                SqlServerVerification.testClassNames(classes));
    }
}
