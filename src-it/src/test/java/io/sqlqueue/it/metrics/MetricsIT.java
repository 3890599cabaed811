package io.sqlqueue.it.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.TestDatabase;
import io.sqlqueue.it.harness.WebXml;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The adapter's figures in Payara Micro's MicroProfile Metrics endpoint, scraped as Prometheus
 * does after a known load (fine messages, poison ones that are dead-lettered, delayed ones that
 * stay), equal to what the tables show: committed deliveries, dead letters, queue depth, sends;
 * and every family with the Prometheus type it is (counts: counter, levels: gauge) and a HELP text.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@DisabledIfSystemProperty(named = "it.server", matches = "payara-server|wildfly",
        disabledReason = "runs on Payara Micro; Payara Server has the same /metrics, WildFly none (docs/prometheus-jmx-exporter.yaml)")
class MetricsIT {

    private static final Duration PATIENCE = Duration.ofMinutes(1);
    private static final int FINE = 40;
    private static final int POISON = 6;
    private static final int DELAYED = 3;
    private static final Map<String, String> QUEUE = Map.of("queue", MetricsLoad.QUEUE);
    /** Every family the adapter adds to /metrics, by its Prometheus type. */
    private static final Map<String, String> FAMILIES = Map.ofEntries(
            Map.entry("sqlqueue_queue_ready", "gauge"), Map.entry("sqlqueue_queue_delayed", "gauge"),
            Map.entry("sqlqueue_queue_leased", "gauge"), Map.entry("sqlqueue_queue_dead_letters", "gauge"),
            Map.entry("sqlqueue_queue_expired", "gauge"), Map.entry("sqlqueue_queue_oldest_ready_age_seconds", "gauge"),
            Map.entry("sqlqueue_consumer_committed_total", "counter"),
            Map.entry("sqlqueue_consumer_rolled_back_total", "counter"),
            Map.entry("sqlqueue_consumer_dead_lettered_total", "counter"),
            Map.entry("sqlqueue_consumer_expired_total", "counter"), Map.entry("sqlqueue_consumer_polls_total", "counter"),
            Map.entry("sqlqueue_consumer_empty_polls_total", "counter"),
            Map.entry("sqlqueue_consumer_paused_polls_total", "counter"),
            Map.entry("sqlqueue_consumer_in_flight", "gauge"), Map.entry("sqlqueue_consumer_paused", "gauge"),
            Map.entry("sqlqueue_consumer_circuit_open", "gauge"),
            Map.entry("sqlqueue_consumer_consecutive_failures", "gauge"),
            Map.entry("sqlqueue_consumer_latency_seconds", "gauge"), Map.entry("sqlqueue_consumer_processing_seconds", "gauge"),
            Map.entry("sqlqueue_producer_sent_total", "counter"), Map.entry("sqlqueue_producer_errors_total", "counter"),
            Map.entry("sqlqueue_producer_cancelled_total", "counter"), Map.entry("sqlqueue_producer_send_seconds", "gauge"));

    /**
     * The same bean class declared a second time on the same queue: its consumer bean is
     * {@code ,instance=2}, whose figures Payara's registry once refused (other label names than the
     * first's), so that only the first bean's were scraped.
     */
    private static final String SECOND_BEAN = """
            <ejb-jar xmlns="https://jakarta.ee/xml/ns/jakartaee" version="4.0">
              <enterprise-beans>
                <message-driven>
                  <ejb-name>SecondPoisonRefusingBean</ejb-name>
                  <ejb-class>io.sqlqueue.it.metrics.PoisonRefusingBean</ejb-class>
                  <messaging-type>io.sqlqueue.api.QueueListener</messaging-type>
                  <transaction-type>Container</transaction-type>
                  <activation-config>
                    <activation-config-property><activation-config-property-name>queue</activation-config-property-name><activation-config-property-value>%s</activation-config-property-value></activation-config-property>
                    <activation-config-property><activation-config-property-name>dataSourceJndiName</activation-config-property-name><activation-config-property-value>%s</activation-config-property-value></activation-config-property>
                    <activation-config-property><activation-config-property-name>maxAttempts</activation-config-property-name><activation-config-property-value>2</activation-config-property-value></activation-config-property>
                    <activation-config-property><activation-config-property-name>retryBackoff</activation-config-property-name><activation-config-property-value>0</activation-config-property-value></activation-config-property>
                    <activation-config-property><activation-config-property-name>maxRetryBackoff</activation-config-property-name><activation-config-property-value>0</activation-config-property-value></activation-config-property>
                    <activation-config-property><activation-config-property-name>pollInterval</activation-config-property-name><activation-config-property-value>20</activation-config-property-value></activation-config-property>
                    <activation-config-property><activation-config-property-name>maxPollInterval</activation-config-property-name><activation-config-property-value>100</activation-config-property-value></activation-config-property>
                  </activation-config>
                </message-driven>
              </enterprise-beans>
            </ejb-jar>
            """.formatted(MetricsLoad.QUEUE, MetricsLoad.DS);

    @Deployment(testable = false)
    static WebArchive deployment() {
        WebArchive war = ShrinkWrap.create(WebArchive.class, "metrics-it.war")
                .addClasses(MetricsLoad.class, PoisonRefusingBean.class)
                .addAsLibraries(new File(System.getProperty("it.h2.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml")
                .addAsWebInfResource(new StringAsset(SECOND_BEAN), "ejb-jar.xml");
        new WebXml(war.getName())
                .dataSource(MetricsLoad.DS, TestDatabase.forRun("metrics"), 16)
                .connectionFactory(MetricsLoad.FACTORY, "NoTransaction", 4, Map.of("dataSourceJndiName", MetricsLoad.DS))
                .addTo(war);
        return war;
    }

    @ArquillianResource
    private URL base;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** What the tables show, by the servlet in the server (the H2 database lives there). */
    private Map<String, Long> tables() throws Exception {
        HttpResponse<String> r = get(URI.create(base + "load"));
        assertEquals(200, r.statusCode(), r.body());
        Map<String, Long> counts = new HashMap<>();
        for (String line : r.body().split("\n")) {
            String[] kv = line.split("=");
            counts.put(kv[0], Long.parseLong(kv[1].trim()));
        }
        return counts;
    }

    /** Micro's /metrics, on the port the test WAR is served from, in Prometheus text. */
    private PrometheusText scrape() throws Exception {
        HttpResponse<String> r = get(URI.create(base.toString()).resolve("/metrics"));
        assertEquals(200, r.statusCode(), r.body());
        return new PrometheusText(r.body());
    }

    private static Map<String, String> queue(String key, String value) {
        return Map.of("queue", MetricsLoad.QUEUE, key, value);
    }

    @Test
    void theScrapedFiguresAreWhatTheTablesShow() throws Exception {
        HttpResponse<String> load = http.send(HttpRequest.newBuilder(URI.create(base + "load?fine=" + FINE
                + "&poison=" + POISON + "&delayed=" + DELAYED)).POST(HttpRequest.BodyPublishers.noBody())
                .timeout(PATIENCE).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, load.statusCode(), load.body());
        Await.until("the fine messages delivered and the poison ones dead-lettered", PATIENCE, () -> {
            Map<String, Long> t = tables();
            return t.get("delivered") == FINE && t.get("deadLetters") == POISON;
        });
        Map<String, Long> tables = tables();
        assertEquals((long) DELAYED, tables.get("queued"), "only the delayed ones left in the queue table");

        // a delivery's row is visible when its transaction commits, the consumer counts it just after;
        // the queue's counts are read from the database at most once a second
        Await.until("the scrape shows the tables' counts", PATIENCE, () -> {
            PrometheusText m = scrape();
            return m.sum("sqlqueue_consumer_committed_total", QUEUE) == FINE
                    && m.sum("sqlqueue_consumer_dead_lettered_total", QUEUE) == POISON
                    && m.count("sqlqueue_queue_dead_letters", QUEUE) == POISON
                    && m.count("sqlqueue_queue_delayed", QUEUE) == DELAYED;
        });
        PrometheusText m = scrape();
        // the two beans share the work: their sums are what the tables show
        assertEquals((long) tables.get("delivered"), m.sum("sqlqueue_consumer_committed_total", QUEUE), "committed deliveries");
        assertEquals(2L * POISON, m.sum("sqlqueue_consumer_rolled_back_total", QUEUE), "two attempts of each poison message");
        assertEquals((long) tables.get("deadLetters"), m.sum("sqlqueue_consumer_dead_lettered_total", QUEUE), "dead-lettered by the consumers");
        assertEquals((long) tables.get("deadLetters"), m.count("sqlqueue_queue_dead_letters", QUEUE), "rows in the dead-letter table");
        assertEquals((long) tables.get("queued"), m.count("sqlqueue_queue_ready", QUEUE) + m.count("sqlqueue_queue_delayed", QUEUE)
                + m.count("sqlqueue_queue_leased", QUEUE), "queue depth: ready + delayed + leased = rows in the queue table");
        assertEquals(0L, m.count("sqlqueue_queue_ready", QUEUE), "nothing ready");
        assertEquals(0L, m.sum("sqlqueue_consumer_in_flight", QUEUE), "nothing in flight");
        assertEquals(tables.get("delivered") + tables.get("deadLetters") + tables.get("queued"),
                m.count("sqlqueue_producer_sent_total", Map.of("database", MetricsLoad.DS)), "every message sent");
        assertEquals(0L, m.count("sqlqueue_producer_errors_total", Map.of("database", MetricsLoad.DS)));

        // labels: the queue's database, the consumer's bean class; percentiles as quantiles in seconds
        assertEquals(1, m.samples("sqlqueue_queue_ready", Map.of("queue", MetricsLoad.QUEUE, "database", MetricsLoad.DS)).size());
        // one series per bean: the first's bean_instance empty (none, to Prometheus), the second's 2
        Map<String, String> secondBean = Map.of("queue", MetricsLoad.QUEUE, "bean_instance", "2");
        assertEquals(2, m.samples("sqlqueue_consumer_committed_total", Map.of("queue", MetricsLoad.QUEUE,
                "consumer", PoisonRefusingBean.class.getSimpleName(), "database", MetricsLoad.DS)).size(),
                "both beans' series");
        assertEquals(1, m.samples("sqlqueue_consumer_committed_total", secondBean).size(), "the second bean's series");
        for (String family : FAMILIES.keySet()) {
            if (family.startsWith("sqlqueue_consumer_")) {
                assertFalse(m.samples(family, secondBean).isEmpty(), "the second bean has " + family);
            }
        }
        for (PrometheusText.Sample median : m.samples("sqlqueue_consumer_latency_seconds", queue("quantile", "0.5"))) {
            Map<String, String> bean = new HashMap<>(median.labels());
            bean.put("quantile", "0.99");
            double p50 = median.value();
            double p99 = m.value("sqlqueue_consumer_latency_seconds", bean);
            assertTrue(p50 >= 0 && p50 <= p99 && p99 < PATIENCE.toSeconds(), "latency p50 " + p50 + " s, p99 " + p99 + " s");
        }
        double sendP99 = m.value("sqlqueue_producer_send_seconds", Map.of("database", MetricsLoad.DS, "quantile", "0.99"));
        assertTrue(sendP99 > 0 && sendP99 < PATIENCE.toSeconds(), "send p99 " + sendP99 + " s");
        // every family typed as Prometheus expects (counts since activation: counter; levels: gauge), with HELP
        for (Map.Entry<String, String> family : FAMILIES.entrySet()) {
            String name = family.getKey();
            assertTrue(m.names().contains(name), name + " is scraped too: " + m.names());
            assertEquals(family.getValue(), m.type(name), "the TYPE of " + name);
            assertTrue(m.help(name) != null && !m.help(name).isBlank(), "a HELP text for " + name + ": " + m.help(name));
        }
        assertEquals(FAMILIES.keySet(), m.names().stream().filter(n -> n.startsWith("sqlqueue_"))
                .collect(Collectors.toSet()), "the adapter's families, no more");
        assertTrue(m.help("sqlqueue_consumer_committed_total").startsWith("Messages whose delivery transaction committed"),
                "the HELP is the Committed attribute's description: " + m.help("sqlqueue_consumer_committed_total"));
    }
}
