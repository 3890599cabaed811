package io.sqlqueue.verification;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What surefire recorded for each test class: its {@code TEST-<class>.xml}, read back into one
 * outcome per test. Reading surefire's files rather than listening to JUnit lets the same report
 * be made from the run just done or from an earlier one (CI reuses its main build's run).
 */
final class TestResults {

    enum Outcome {
        PASSED("PASSED"), FAILED("FAILED"), NOT_POSSIBLE("NOT POSSIBLE HERE");

        final String label;

        Outcome(String label) {
            this.label = label;
        }
    }

    /** One test: its method name, outcome, and for a failure or a skip the first line of why. */
    record Test(String name, Outcome outcome, String why) {
    }

    /** One class's tests; {@code missing} when surefire wrote nothing for it. */
    record ClassResult(String className, List<Test> tests, String missing) {

        long count(Outcome outcome) {
            return tests.stream().filter(t -> t.outcome() == outcome).count();
        }

        String simpleName() {
            return className.substring(className.lastIndexOf('.') + 1);
        }
    }

    private TestResults() {
    }

    /**
     * The results of {@code classNames} in {@code directory}. A class without a file becomes one
     * failed entry: a test JVM that crashed, or a class that did not run, must not pass silently.
     */
    static List<ClassResult> read(Path directory, List<String> classNames) throws IOException {
        List<ClassResult> results = new ArrayList<>();
        for (String className : classNames) {
            Path file = directory.resolve("TEST-" + className + ".xml");
            if (!Files.isRegularFile(file)) {
                results.add(new ClassResult(className, List.of(new Test("(the whole class)", Outcome.FAILED,
                        "no results in " + file + ": the class did not run, or its test JVM died")), file.toString()));
            } else {
                results.add(new ClassResult(className, parse(file), null));
            }
        }
        return results;
    }

    private static List<Test> parse(Path file) throws IOException {
        Element suite;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            suite = factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
        } catch (Exception e) {
            throw new IOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<Test> tests = new ArrayList<>();
        NodeList cases = suite.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            Element testcase = (Element) cases.item(i);
            String name = testcase.getAttribute("name").isEmpty() ? "(the whole class)" : testcase.getAttribute("name");
            tests.add(outcomeOf(name, testcase));
        }
        return tests;
    }

    /**
     * {@code <failure>} (an assertion) and {@code <error>} (an exception) are failures;
     * {@code <skipped>} is a JUnit assumption or {@code @Disabled}: the test could not run here,
     * which is reported as such and never counted as passed.
     */
    private static Test outcomeOf(String name, Element testcase) {
        for (Node n = testcase.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                switch (e.getTagName()) {
                    case "failure" -> {
                        return new Test(name, Outcome.FAILED, firstLine(e));
                    }
                    case "error" -> { // an exception other than an assertion's: its type tells as much as its text
                        String type = e.getAttribute("type");
                        return new Test(name, Outcome.FAILED, (type.isEmpty() ? "" : type.substring(
                                type.lastIndexOf('.') + 1) + ": ") + firstLine(e));
                    }
                    case "skipped" -> {
                        return new Test(name, Outcome.NOT_POSSIBLE, firstLine(e));
                    }
                    default -> { /* system-out and the like */ }
                }
            }
        }
        return new Test(name, Outcome.PASSED, null);
    }

    /**
     * The first line of the message, else of the stack trace, without a leading exception class
     * name and JUnit's "Assumption failed: " (a skip's reason is the text the test gave).
     */
    private static String firstLine(Element e) {
        String text = e.getAttribute("message").isBlank() ? e.getTextContent() : e.getAttribute("message");
        String line = text == null ? "" : text.strip().lines().findFirst().orElse("");
        line = line.replaceFirst("^[\\w.$]+(Exception|Error)(: |$)", "");
        line = line.replaceFirst("^Assumption failed: ", "");
        return line.isEmpty() ? "(no message)" : line;
    }
}
