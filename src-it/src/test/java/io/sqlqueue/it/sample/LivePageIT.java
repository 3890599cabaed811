package io.sqlqueue.it.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.HeadlessChromium;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample's live page (live.html) in headless Chromium: it reads the status resource every
 * second and shows the same figures, charts the processing of a load, says when the status is
 * unreachable and recovers. Saves the screenshot the README shows (docs/live-page.png).
 */
@ExtendWith(ArquillianExtension.class)
class LivePageIT {

    /**
     * Two waves of requests sent at once, each placing {@value #PER_REQUEST} orders of one customer,
     * one of them invalid (dead-lettered after its attempts): placed faster than the bean takes
     * them (2,083 waiting at the peak in one run), so the charts show the queue fill and drain twice.
     */
    private static final List<List<String>> WAVES = List.of(
            List.of("live-a", "live-b", "live-c"), List.of("live-d", "live-e", "live-f"));
    private static final int PER_REQUEST = 1000;
    private static final int REQUESTS = WAVES.stream().mapToInt(List::size).sum();
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 700;

    /** The page's figure (element id) and the status member it shows. */
    private static final Map<String, String> SHOWN = Map.of(
            "depth", "pending", "inflight", "inFlight", "dead", "deadLettered",
            "p50", "latencyP50Ms", "p99", "latencyP99Ms");

    /** The page as the sample's WAR ships it, next to the sample's beans and the run's resources. */
    @Deployment(testable = false)
    static WebArchive deployment() {
        WebArchive built = ShrinkWrap.createFromZipFile(WebArchive.class, new File(System.getProperty("it.sample.war")));
        return SampleIT.deployment().add(built.get("live.html").getAsset(), "live.html");
    }

    @ArquillianResource
    private URL deployed;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void thePageShowsTheStatusFiguresAndChartsTheProcessingOfALoad() throws Exception {
        assumeChromium();
        Map<String, String> before = status();
        try (HeadlessChromium chromium = HeadlessChromium.start(WIDTH, HEIGHT)) {
            openLivePage(chromium);
            for (List<String> wave : WAVES) {
                awaitReadings(chromium, readings(chromium) + 3);
                List<CompletableFuture<HttpResponse<String>>> placing = new ArrayList<>();
                for (String customer : wave) {
                    placing.add(http.sendAsync(HttpRequest.newBuilder(URI.create(app() + "api/orders?count="
                            + PER_REQUEST + "&invalid=1&customer=" + customer)).POST(HttpRequest.BodyPublishers.noBody())
                            .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString()));
                }
                for (CompletableFuture<HttpResponse<String>> placed : placing) {
                    assertEquals(200, placed.get().statusCode(), placed.get().body());
                }
            }
            int orders = PER_REQUEST * REQUESTS;
            Await.until(orders + " orders processed or dead-lettered, none pending or in flight", Duration.ofMinutes(3),
                    () -> {
                        Map<String, String> s = status();
                        return delta(s, before, "processed") + delta(s, before, "deadLettered") == orders
                                && number(s, "pending") == 0 && number(s, "inFlight") == 0;
                    });
            Map<String, String> quiet = status();
            assertEquals(REQUESTS, delta(quiet, before, "deadLettered"), "the invalid orders dead-lettered");

            // two more readings: the second began after the quiet status was read
            long seen = readings(chromium);
            awaitReadings(chromium, seen + 2);
            Map<String, String> page = figures(chromium);
            Map<String, String> after = status();

            for (Map.Entry<String, String> figure : SHOWN.entrySet()) {
                String member = figure.getValue();
                assertEquals(quiet.get(member), after.get(member), member + " changed: not a quiet moment");
                double expected = number(quiet, member);
                double shown = Double.parseDouble(page.get(figure.getKey()));
                // counts are shown whole, latencies to a tenth of a millisecond
                assertEquals(expected, shown, 0.05 + 1e-9, figure.getKey() + " on the page against " + member
                        + " of the status: " + page + " / " + quiet);
            }
            assertTrue(number(quiet, "deadLettered") >= REQUESTS, quiet.toString());
            assertTrue(number(quiet, "latencyP99Ms") >= number(quiet, "latencyP50Ms"), quiet.toString());
            assertEquals(0.0, Double.parseDouble(page.get("rate")), "no commit between the last two readings: " + page);
            assertTrue(Double.parseDouble(page.get("rate-max")) > 0, "the page saw the deliveries happen: " + page);
            assertEquals("live", page.get("state"), page.toString());

            byte[] png = chromium.screenshot();
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            assertEquals(WIDTH, image.getWidth(), "screenshot width");
            assertEquals(HEIGHT, image.getHeight(), "screenshot height");
            Path docs = checkoutRoot().resolve("docs");
            Files.createDirectories(docs);
            Files.write(docs.resolve("live-page.png"), png);
        }
    }

    @Test
    void thePageShowsWhenTheStatusIsUnreachableAndKeepsTrying() throws Exception {
        assumeChromium();
        try (HeadlessChromium chromium = HeadlessChromium.start(WIDTH, HEIGHT)) {
            openLivePage(chromium);
            awaitReadings(chromium, 1);

            chromium.offline(true);
            Await.until("the page says the status is unreachable", Duration.ofSeconds(30),
                    () -> figures(chromium).get("state").startsWith("status unreachable since"));
            long readings = readings(chromium);

            chromium.offline(false);
            Await.until("the page reads the status again", Duration.ofSeconds(30), () -> {
                Map<String, String> page = figures(chromium);
                return page.get("state").equals("live") && Long.parseLong(page.get("samples")) > readings;
            });
        }
    }

    /**
     * The deployment's address on the one Micro listens on: the connector reports "localhost", which
     * Chromium resolves by itself (to ::1 as well), so browser and test could reach different servers.
     */
    private String app() {
        return deployed.getProtocol() + "://" + System.getProperty("it.micro.bind.address", "127.0.0.1") + ":"
                + deployed.getPort() + deployed.getPath();
    }

    /**
     * Opens the page once the server serves it: twice in six runs the first test of the class had
     * Chromium shown a Payara Micro 404 page at "localhost" (cause not found), and a page never
     * reloads itself.
     */
    private void openLivePage(HeadlessChromium chromium) throws Exception {
        URI page = URI.create(app() + "live.html");
        Await.until("the sample serves " + page, Duration.ofSeconds(60), () -> http.send(HttpRequest.newBuilder(page)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        chromium.open(page.toString());
    }

    private static void assumeChromium() {
        assumeTrue(HeadlessChromium.installed(), "no " + HeadlessChromium.BINARY
                + " (Debian's chromium package is not installed): the live page is not tested");
    }

    /** The repository's root: two levels above the sample's build directory. */
    private static Path checkoutRoot() {
        return Path.of(System.getProperty("it.sample.war")).toAbsolutePath().getParent().getParent().getParent()
                .normalize();
    }

    private static void awaitReadings(HeadlessChromium chromium, long atLeast) throws Exception {
        try {
            Await.until("the page has shown " + atLeast + " readings of the status", Duration.ofSeconds(60),
                    () -> readings(chromium) >= atLeast);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the page: " + chromium.evaluate("location.href + ' '"
                    + " + document.readyState + ' ' + document.visibilityState + ' ' + document.body.innerText")
                    + "\nChromium's last output:\n" + chromium.lastOutput(), e);
        }
    }

    /** How many times the page has read the status; 0 while it is still loading. */
    private static long readings(HeadlessChromium chromium) throws Exception {
        String samples = figures(chromium).get("samples");
        return samples.matches("[0-9]+") ? Long.parseLong(samples) : 0;
    }

    /** The page's figures by element id, as it shows them ("undefined" before the page is there). */
    private static Map<String, String> figures(HeadlessChromium chromium) throws Exception {
        String shown = chromium.evaluate("['depth', 'inflight', 'dead', 'rate', 'p50', 'p99', 'rate-max', 'samples',"
                + " 'state'].map(id => id + '=' + (document.getElementById(id) || {}).textContent).join('\\n')");
        Map<String, String> figures = new HashMap<>();
        for (String line : shown.split("\n")) {
            figures.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
        }
        return figures;
    }

    private Map<String, String> status() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(app() + "api/orders/status"))
                .timeout(Duration.ofMinutes(1)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        // a flat object: its numbers and booleans are all that is compared
        Map<String, String> members = new HashMap<>();
        Matcher m = Pattern.compile("\"(\\w+)\":(-?[0-9.]+(?:[eE][-+]?[0-9]+)?|true|false)").matcher(r.body());
        while (m.find()) {
            members.put(m.group(1), m.group(2));
        }
        assertTrue(members.containsKey("inFlight"), "the consumer's figures are missing: " + r.body());
        return members;
    }

    private static double number(Map<String, String> status, String member) {
        return Double.parseDouble(status.get(member));
    }

    private static long delta(Map<String, String> now, Map<String, String> before, String member) {
        return Long.parseLong(now.get(member)) - Long.parseLong(before.get(member));
    }
}
