package io.sqlqueue.it.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.it.admin.PayaraDomain;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.HeadlessChromium;
import io.sqlqueue.it.harness.TargetServer;
import io.sqlqueue.it.harness.TestDatabase;
import io.sqlqueue.it.harness.WebXml;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The dead-letter console (module console) in headless Chromium on each {@link TargetServer}, signed
 * in as a user of the realm's group sqlqueue-admin: the queue list, the groups, one message, a group
 * requeued, one message deleted and one edited and requeued as a new message, the tables checked in
 * SQL after each change (rows moved, counts, the audit row naming the user); a user without the role
 * gets 403. Saves docs/dead-letter-console.png for the README.
 *
 * <p>On Payara Micro the console's classes share one WAR with the test's (Micro deploys one WAR),
 * with the console's web.xml; the users come from the post-boot file. On Payara Server and WildFly
 * the console's WAR as built (its own descriptors) sits in the EAR beside the adapter and the test's
 * WAR ({@code /console-it}); the users come from {@link #usersOnPayaraServer()} and, on WildFly,
 * from bin/add-user.sh before the server starts (src-it/pom.xml, add-wildfly-console-users).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DeadLetterConsoleIT {

    /** Users of the realm: Micro's post-boot file, the full servers' as said above. */
    private static final String ADMIN = "console-admin";
    private static final String OTHER = "console-other";
    private static final String PASSWORD = "console-secret";
    private static final int BAD = 3;
    private static final int DOWN = 2;
    private static final Duration PATIENCE = Duration.ofMinutes(1);
    /** The console's context root, as its WAR is named. */
    private static final String CONSOLE = "sqlqueue-console";
    /** The test's WAR (seed servlet, consumer, data source) on the full servers. */
    private static final String TEST_APP = "console-it";

    /**
     * On Micro the console's WAR with the test's consumer, its hands in the server and the run's
     * resources; on the full servers an EAR of the adapter, the test's WAR and the console's WAR.
     */
    @Deployment(testable = false)
    static Archive<?> deployment() {
        WebArchive console = ShrinkWrap.createFromZipFile(WebArchive.class, new File(System.getProperty("it.console.war")));
        TargetServer server = TargetServer.current();
        if (server == TargetServer.PAYARA_MICRO) {
            WebArchive war = ShrinkWrap.create(WebArchive.class, CONSOLE + ".war");
            for (Map.Entry<ArchivePath, Node> e : console.getContent().entrySet()) {
                String path = e.getKey().get();
                if (e.getValue().getAsset() != null && !path.endsWith("/web.xml") && !path.endsWith("/glassfish-web.xml")) {
                    war.add(e.getValue().getAsset(), path);
                }
            }
            war.addClasses(ConsoleSeed.class, FailingWhileToldBean.class)
                    .addAsLibraries(new File(System.getProperty("it.h2.jar")))
                    .addAsWebInfResource("console/glassfish-web.xml", "glassfish-web.xml");
            new WebXml(war.getName())
                    .dataSource(ConsoleSeed.DS, TestDatabase.forRun("console"), 8)
                    .including(text(console.get("WEB-INF/web.xml").getAsset().openStream()))
                    .addTo(war);
            return war;
        }
        WebArchive app = ShrinkWrap.create(WebArchive.class, TEST_APP + ".war")
                .addClasses(ConsoleSeed.class, FailingWhileToldBean.class)
                .addAsLibraries(new File(System.getProperty("it.h2.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml");
        new WebXml(app.getName())
                .dataSource(ConsoleSeed.DS, TestDatabase.forRun("console"), 8)
                .addTo(app);
        return server.deployable(DeadLetterConsoleIT.class, app, console);
    }

    /**
     * Payara Server's users, made in the running domain (the connector started it; asadmin
     * create-file-user needs a running server, which the build's create-payara-domain has not).
     */
    @BeforeAll
    static void usersOnPayaraServer() throws Exception {
        if (TargetServer.current() != TargetServer.PAYARA_SERVER) {
            return;
        }
        Path home = Path.of(System.getProperty("it.payara.home"));
        int adminPort = Integer.parseInt(System.getProperty("it.payara.admin.port"));
        Path work = home.getParent().resolve("console-users");
        PayaraDomain domain = new PayaraDomain(home, System.getProperty("it.payara.domain"), adminPort - 48, work);
        Files.createDirectories(work);
        Path password = Files.writeString(work.resolve("password"), "AS_ADMIN_USERPASSWORD=" + PASSWORD + "\n");
        Path commands = Files.writeString(work.resolve("users.asadmin"),
                "create-file-user --groups sqlqueue-admin --passwordfile " + password + " " + ADMIN + "\n"
                + "create-file-user --groups other --passwordfile " + password + " " + OTHER + "\n");
        domain.run("--host", "127.0.0.1", "--port", String.valueOf(adminPort), "multimode", "--file", commands.toString());
    }

    private static String text(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ArquillianResource
    private URL deployed;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void anAdminBrowsesRequeuesAGroupAndDeletesAMessageAndTheTablesAgree() throws Exception {
        assumeTrue(HeadlessChromium.installed(), "no " + HeadlessChromium.BINARY
                + " (Debian's chromium package is not installed): the console's pages are not tested");
        assertEquals(200, post(seed() + "?bad=" + BAD + "&down=" + DOWN).statusCode());
        Await.until("the " + (BAD + DOWN) + " messages dead-lettered", PATIENCE,
                () -> tables().get("deadLetters").equals(List.of(String.valueOf(BAD + DOWN))));
        assertEquals(200, post(seed() + "?failing=false").statusCode());

        try (HeadlessChromium chromium = HeadlessChromium.start(1200, 760)) {
            chromium.call("Network.enable", "{}");
            chromium.call("Network.setExtraHTTPHeaders", "{\"headers\":{\"Authorization\":\"" + basic(ADMIN) + "\"}}");

            show(chromium, app() + "queues", "Queues");
            String list = text(chromium);
            assertTrue(list.contains(ConsoleSeed.QUEUE), list);
            assertTrue(list.matches("(?s).*" + ConsoleSeed.QUEUE + "\\s.*\\s" + (BAD + DOWN) + "\\s.*"),
                    "the queue's row shows its dead letters: " + list);

            chromium.evaluate("(document.querySelector('a[href^=\"dead-letters\"]').click(), 'ok')");
            awaitText(chromium, "By reason");
            String groups = text(chromium);
            assertTrue(groups.contains("java.lang.IllegalArgumentException"), groups);
            assertTrue(groups.contains("Requeue all " + BAD), groups);
            assertTrue(groups.contains("java.lang.IllegalStateException"), groups);
            assertTrue(groups.contains("Requeue all " + DOWN), groups);

            String firstId = chromium.evaluate("document.querySelector('a[href^=\"message\"]').textContent");
            chromium.evaluate("(document.querySelector('a[href^=\"message\"]').click(), 'ok')");
            awaitText(chromium, "Dead letter " + firstId);
            String message = text(chromium);
            assertTrue(message.contains("order"), "the body as text: " + message);
            assertTrue(message.contains("\"customer\""), "the headers: " + message);
            assertTrue(message.contains("dead_lettered"), "the journal's row: " + message);
            chromium.evaluate("history.back(), 'ok'");
            awaitText(chromium, "By reason");

            submit(chromium, "requeue", "java.lang.IllegalArgumentException");
            awaitText(chromium, "Requeued " + BAD + " dead letters");
            Await.until("the requeued messages taken by the bean", PATIENCE,
                    () -> tables().get("done").equals(List.of(String.valueOf(BAD))));
            Map<String, List<String>> afterRequeue = tables();
            assertEquals(List.of(String.valueOf(DOWN)), afterRequeue.get("deadLetters"));
            assertEquals(List.of("0"), afterRequeue.get("badDeadLetters"));
            assertEquals(List.of("0"), afterRequeue.get("queued"));
            assertEquals(List.of("requeue " + ADMIN + " " + BAD + " java.lang.IllegalArgumentException"),
                    afterRequeue.get("audit"), afterRequeue.toString());

            String victim = chromium.evaluate("document.querySelector('a[href^=\"message\"]').textContent");
            chromium.evaluate("(document.querySelector('a[href^=\"message\"]').click(), 'ok')");
            awaitText(chromium, "Dead letter " + victim);
            chromium.evaluate("(document.querySelector('form input[name=action][value=delete]').form.submit(), 'ok')");
            awaitText(chromium, "Deleted 1 of 1");
            Map<String, List<String>> afterDelete = tables();
            assertEquals(List.of(String.valueOf(DOWN - 1)), afterDelete.get("deadLetters"));
            assertEquals(List.of("requeue " + ADMIN + " " + BAD + " java.lang.IllegalArgumentException",
                    "delete " + ADMIN + " 1 " + victim), afterDelete.get("audit"), afterDelete.toString());

            Path docs = Path.of(System.getProperty("it.console.war")).toAbsolutePath().getParent().getParent()
                    .getParent().resolve("docs").normalize();
            Files.createDirectories(docs);
            Files.write(docs.resolve("dead-letter-console.png"), chromium.screenshot());

            String edited = chromium.evaluate("document.querySelector('a[href^=\"message\"]').textContent");
            chromium.evaluate("(document.querySelector('a[href^=\"message\"]').click(), 'ok')");
            awaitText(chromium, "Requeue as a new message");
            String originalBody = chromium.evaluate("document.querySelector('form input[name=action][value=edit]')"
                    + ".form.body.value");
            assertTrue(originalBody.startsWith("down order "), originalBody);
            assertEquals("submitted", chromium.evaluate("(() => { const f = document.querySelector("
                    + "'form input[name=action][value=edit]').form; f.body.value = '" + ConsoleSeed.FIXED + "';"
                    + " f.headers.value = 'customer=c9\\nfixed=yes'; f.submit(); return 'submitted'; })()"));
            awaitText(chromium, "Requeued dead letter " + edited + ", edited, as new message ");
            Await.until("the edited message taken by the bean", PATIENCE,
                    () -> tables().get("doneFixed").equals(List.of("1")));
            Map<String, List<String>> afterEdit = tables();
            assertEquals(List.of("0"), afterEdit.get("deadLetters"));
            assertEquals(List.of("0"), afterEdit.get("queued"));
            List<String> audit = afterEdit.get("audit");
            assertEquals(3, audit.size(), afterEdit.toString());
            assertTrue(audit.get(2).matches("edit " + ADMIN + " 1 " + edited + " -> \\d+"), audit.get(2));
            List<String> originals = afterEdit.get("editOriginal");
            assertEquals(1, originals == null ? 0 : originals.size(), afterEdit.toString());
            assertTrue(originals.get(0).matches(edited + " -> \\d+ " + originalBody + " \\{.*\"customer\".*\\}"),
                    "the database keeps the original's body and headers: " + originals.get(0));

            // the audit table's link shows the original on the old id's message page
            assertEquals("ok", chromium.evaluate("(() => { for (const a of document.querySelectorAll('a')) {"
                    + " if (a.textContent === 'original') { a.click(); return 'ok'; } } return 'no link'; })()"));
            awaitText(chromium, "Dead letter " + edited + " of " + ConsoleSeed.QUEUE + ", requeued edited");
            String original = text(chromium);
            assertTrue(original.contains(originalBody), "the original body: " + original);
            assertTrue(original.contains("\"customer\""), "the original headers: " + original);
            assertTrue(original.contains("Edited by " + ADMIN), original);
            assertTrue(original.contains("dead_lettered"), "its journal row: " + original);
        }
    }

    @Test
    void aUserWithoutTheRoleIsRefusedAndNoUserIsAskedToSignIn() throws Exception {
        assertEquals(403, get(app() + "queues", OTHER).statusCode(), "signed in, not in the group sqlqueue-admin");
        assertEquals(401, get(app() + "queues", null).statusCode(), "not signed in");
        assertEquals(403, http.send(HttpRequest.newBuilder(URI.create(app() + "change")).header("Authorization",
                basic(ADMIN)).POST(HttpRequest.BodyPublishers.ofString("queue=x&action=delete&id=1"))
                .header("Content-Type", "application/x-www-form-urlencoded").build(),
                HttpResponse.BodyHandlers.ofString()).statusCode(), "a change without the session's token");
    }

    /** Submits the group form of {@code action} for the dead letters of this exception class. */
    private static void submit(HeadlessChromium chromium, String action, String errorClass) throws Exception {
        assertEquals("submitted", chromium.evaluate("(() => { for (const f of document.forms) {"
                + " const a = f.querySelector('input[name=action]'), c = f.querySelector('input[name=errorClass]');"
                + " if (a && c && a.value === '" + action + "' && c.value === '" + errorClass + "') {"
                + " f.submit(); return 'submitted'; } } return 'no such form'; })()"));
    }

    private static void show(HeadlessChromium chromium, String url, String expected) throws Exception {
        chromium.open(url);
        awaitText(chromium, expected);
    }

    private static void awaitText(HeadlessChromium chromium, String expected) throws Exception {
        try {
            Await.until("the page shows '" + expected + "'", PATIENCE, () -> text(chromium).contains(expected));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the page: " + text(chromium), e);
        }
    }

    private static String text(HeadlessChromium chromium) throws Exception {
        return chromium.evaluate("location.href + '\\n' + (document.body ? document.body.innerText : '')");
    }

    /** The console's address (on the address Micro listens on, see LivePageIT#app; the full servers' is the same). */
    private String app() {
        return root() + CONSOLE + "/";
    }

    /** The seed servlet's application: the console's WAR on Micro, the test's own on the full servers. */
    private String seed() {
        return root() + (TargetServer.current() == TargetServer.PAYARA_MICRO ? CONSOLE : TEST_APP) + "/seed";
    }

    private String root() {
        return deployed.getProtocol() + "://" + System.getProperty("it.micro.bind.address", "127.0.0.1") + ":"
                + deployed.getPort() + "/";
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> get(String url, String user) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (user != null) {
            b.header("Authorization", basic(user));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", basic(ADMIN))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(PATIENCE).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** What the tables show, by the servlet in the server: each name's values. */
    private Map<String, List<String>> tables() throws Exception {
        HttpResponse<String> r = get(seed(), ADMIN);
        assertEquals(200, r.statusCode(), r.body());
        Map<String, List<String>> values = new HashMap<>();
        for (String line : r.body().split("\n")) {
            int eq = line.indexOf('=');
            values.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>()).add(line.substring(eq + 1));
        }
        values.putIfAbsent("audit", List.of());
        return values;
    }
}
