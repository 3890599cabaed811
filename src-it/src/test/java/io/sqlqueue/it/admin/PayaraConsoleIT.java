package io.sqlqueue.it.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.HeadlessChromium;
import io.sqlqueue.outbound.QueueManagedConnectionFactory;
import jakarta.resource.spi.ConfigProperty;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What an admin sees of the adapter in Payara Server's admin console, walked in headless Chromium
 * on a fresh domain configured by {@code admin/payara-server.sh}: the resource adapter config
 * (Resources > Resource Adapter Configs > sqlqueue-adapter) and the second step of a new connector
 * connection pool of the queue's connection factory (Resources > Connectors > Connector Connection
 * Pools > New). Each lists every property of the code, a pool's with the defaults the code
 * declares, and shows the password only masked. Saves the screenshots the README shows
 * (docs/console-*.png). Payara's console has no column for a property's description: names and
 * values only (the README's configuration tables say what each means).
 */
class PayaraConsoleIT {

    static final String DOMAIN = "sqlqueue-console";
    static final int PORT_BASE = 27000;
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 800;
    private static final Duration CONSOLE_START = Duration.ofMinutes(4);

    private static final Path ROOT = Path.of(System.getProperty("it.project.root",
            Path.of(System.getProperty("user.dir")).resolve("..").toString())).normalize();

    /** A row of the console's property table: the value shown and the type of the field showing it. */
    private record Shown(String value, String field) {
    }

    @Test
    void theConsoleListsEveryPropertyWithItsDefaultAndMasksThePassword() throws Exception {
        String home = System.getProperty("it.admin.payara.home");
        assumeTrue(home != null && !home.isEmpty(), "no Payara Server (it.admin.payara.home): payara-server profile only");
        assumeTrue(HeadlessChromium.installed(), "no " + HeadlessChromium.BINARY + ": install Debian's chromium package");
        Path rar = Path.of(System.getProperty("it.rar")).toAbsolutePath();
        Path work = Path.of(System.getProperty("it.admin.work.dir", "target/payara-admin-path")).resolveSibling("payara-console")
                .toAbsolutePath();
        PayaraDomain domain = new PayaraDomain(Path.of(home), DOMAIN, PORT_BASE, work);
        try {
            domain.createAndStart();
            assertEquals(0, domain.runScript(ROOT.resolve("admin/payara-server.sh"), rar.toString()),
                    "admin/payara-server.sh failed: see " + work.resolve("asadmin.log"));
            String console = "http://127.0.0.1:" + domain.adminPort();
            try (HeadlessChromium chromium = HeadlessChromium.start(WIDTH, HEIGHT)) {
                // The console installs itself at its first request ("The Admin Console is starting", a page that
                // reloads itself once the console is up): ask again now and then until the page itself comes.
                String adapterConfig = console + "/jca/resourceAdapterConfigEdit.jsf?name=sqlqueue-adapter";
                long[] opened = {0};
                Await.until("the console shows the adapter's config", CONSOLE_START, () -> {
                    if (titled(chromium, "Edit Resource Adapter Config")) {
                        return true;
                    }
                    if (System.nanoTime() - opened[0] > Duration.ofSeconds(20).toNanos()) {
                        chromium.open(adapterConfig);
                        opened[0] = System.nanoTime();
                    }
                    return false;
                });
                Map<String, Shown> adapter = awaitPropertyRows(chromium);
                assertEquals(configProperties(QueueResourceAdapter.class).keySet(), adapter.keySet(),
                        "the resource adapter's properties in the console: " + adapter);
                assertEquals(new Shown("jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1", "text"), adapter.get("jdbcUrl"));
                assertEquals(new Shown("sa", "text"), adapter.get("user"));
                assertEquals("password", adapter.get("password").field(), "the adapter's password is masked: " + adapter);
                screenshot(chromium, "console-resource-adapter-config.png");

                // a new pool: step 1 names the adapter and the connection definition, step 2 lists the factory's properties
                chromium.open(console + "/jca/connectorConnectionPoolNew1.jsf");
                Await.until("step 1 of a new pool", Duration.ofSeconds(60), () -> titled(chromium, "Step 1 of 2"));
                chromium.evaluate(setValue("jndiProp:name", "orders-console-pool")
                        + setValue("resAdapterProp:db", "sqlqueue-adapter") + " 'ok'");
                Await.until("the connection definitions of sqlqueue-adapter", Duration.ofSeconds(60), () ->
                        chromium.evaluate("(function(){var s=document.getElementById('" + FIELD + "connectionDefProp:db');"
                                + " return s ? Array.from(s.options).map(o => o.value).join(',') : '';})()")
                                .contains("io.sqlqueue.api.QueueConnectionFactory"));
                chromium.evaluate(setValue("jndiProp:name", "orders-console-pool")
                        + "document.getElementById('propertyForm:title:topButtons:nextButton').click(); 'ok'");
                Await.until("step 2 of a new pool", Duration.ofSeconds(60), () -> titled(chromium, "Step 2 of 2"));
                Map<String, Shown> pool = awaitPropertyRows(chromium);
                Map<String, String> defaults = configProperties(QueueManagedConnectionFactory.class);
                assertEquals(defaults.keySet(), pool.keySet(), "the connection factory's properties in the console: " + pool);
                defaults.forEach((name, value) -> assertEquals(value, pool.get(name).value(), "the console's default of " + name));
                assertEquals("password", pool.get("password").field(), "the pool's password is masked: " + pool);
                chromium.evaluate("document.querySelector('[id$=\"basicTable\"]').scrollIntoView(); 'ok'");
                screenshot(chromium, "console-connection-pool.png");
                System.out.println("PayaraConsoleIT: property table columns: " + chromium.evaluate(
                        "Array.from(document.querySelectorAll('[id$=\"basicTable\"] th')).map(t => t.innerText.trim())"
                                + ".filter(t => t).join(' | ')"));
            }
        } finally {
            if (Files.exists(domain.serverLog())) {
                Files.copy(domain.serverLog(), work.resolve("server.log"), StandardCopyOption.REPLACE_EXISTING);
            }
            domain.remove();
        }
    }

    /** The id prefix of the pool wizard's fields. */
    private static final String FIELD = "propertyForm:propertySheet:generalPropertySheet:";

    /** JavaScript setting a field of the pool wizard and telling the page, as a user's change would. */
    private static String setValue(String field, String value) {
        return "(function(){var f=document.getElementById('" + FIELD + field + "'); f.value='" + value + "';"
                + " f.dispatchEvent(new Event('change', {bubbles: true}));})();";
    }

    /** Whether the page has loaded and its title contains {@code title}; false while it is being replaced. */
    private static boolean titled(HeadlessChromium chromium, String title) {
        try {
            String state = chromium.evaluate("document.readyState + '|' + document.title");
            return state.startsWith("complete|") && state.contains(title);
        } catch (Exception e) { // the page went away under the evaluation: a navigation
            return false;
        }
    }

    /**
     * The property table's rows: name to the value in the field that is shown (a confidential
     * property has a text field and a password field; the console shows one of them).
     */
    private static Map<String, Shown> awaitPropertyRows(HeadlessChromium chromium) throws Exception {
        String[] rows = {""};
        Await.until("the property table", Duration.ofSeconds(30), () -> {
            rows[0] = chromium.evaluate("""
                    (function() {
                      var out = [];
                      for (var i = 0; ; i++) {
                        var name = document.querySelector('[id$="rowGroup1:' + i + ':col2:col1St"]');
                        if (!name) break;
                        var shown = Array.from(document.querySelectorAll('[id$="rowGroup1:' + i + ':col3:col1St"],'
                            + '[id$="rowGroup1:' + i + ':col3:confV"]')).filter(f => f.offsetParent !== null);
                        out.push(name.value + '\\t' + shown.map(f => f.value + '\\t' + f.type).join('\\t'));
                      }
                      return out.join('\\n');
                    })()""");
            return !rows[0].isEmpty();
        });
        Map<String, Shown> shown = new TreeMap<>();
        for (String row : rows[0].split("\n")) {
            String[] cells = row.split("\t", -1);
            assertEquals(3, cells.length, "one field shown for " + cells[0] + ": " + row);
            shown.put(cells[0], new Shown(cells[1], cells[2]));
        }
        return shown;
    }

    /** The {@code @ConfigProperty} fields of a class and the defaults the annotations declare. */
    private static Map<String, String> configProperties(Class<?> type) {
        Map<String, String> properties = new TreeMap<>();
        for (Field f : type.getDeclaredFields()) {
            ConfigProperty property = f.getAnnotation(ConfigProperty.class);
            if (property != null) {
                properties.put(f.getName(), property.defaultValue());
            }
        }
        return properties;
    }

    private static void screenshot(HeadlessChromium chromium, String name) throws Exception {
        Path docs = ROOT.resolve("docs");
        Files.createDirectories(docs);
        Files.write(docs.resolve(name), chromium.screenshot());
    }
}
