package io.sqlqueue.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.engine.Topic;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.harness.WebXml;
import io.sqlqueue.it.lifecycle.HealthEndpoint.Answer;
import io.sqlqueue.it.lifecycle.MicroProcess.Census;
import io.sqlqueue.it.lifecycle.SampleClient.Status;
import io.sqlqueue.sample.SampleDatabase;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.h2.tools.Server;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What the Arquillian connector cannot show, since it starts one Micro per deployment and never
 * redeploys: the adapter and the sample in one Payara Micro JVM ({@link MicroProcess}), whose
 * sample the tests undeploy and redeploy and whose database they take away.
 *
 * <p>The sample's database sits behind a {@link TcpForwarder}: an H2 TCP server in this JVM, or
 * the PostgreSQL that SQLQUEUE_SAMPLE_URL names (the it-postgresql execution in src-it/pom.xml).
 * Being outside Micro, it outlives every undeployment. The assertions read the sample's counts
 * (from its tables, over its REST API), the Micro JVM's threads and, for the outage, the records
 * of the adapter's loggers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LifecycleIT {

    private static final Logger LOG = Logger.getLogger(LifecycleIT.class.getName());

    private static final String SAMPLE = "sample";
    /** The WAR of {@link FactoryProbe}, deployed for the health test only. */
    private static final String FACTORY_PROBE = "factory-probe";
    private static final Pattern POSTGRESQL_URL = Pattern.compile("(jdbc:postgresql://)([^/:?]+)(?::(\\d+))?(.*)");
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration PROCESSING_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration POLL = Duration.ofMillis(100);

    private static final String QUEUE = SampleDatabase.QUEUE;
    /** Orders queued when the bean is deactivated, or when the database goes away. */
    private static final int ORDERS = 3000;
    /** How many must be processed first: deliveries are then surely running. */
    private static final int PROCESSED_BEFORE_DISRUPTION = 300;
    /** The sample bean's maxConcurrency: deliveries that can be in flight at once. */
    private static final int MAX_CONCURRENCY = 8;
    /** The queues of the sample's beans: the orders, and the two subscriptions to the order events. */
    private static final List<String> SAMPLE_QUEUES = List.of(QUEUE,
            Topic.queueOf(SampleDatabase.EVENTS_TOPIC, SampleDatabase.LEDGER_SUBSCRIPTION).toString(),
            Topic.queueOf(SampleDatabase.EVENTS_TOPIC, SampleDatabase.LARGE_ORDERS_SUBSCRIPTION).toString());
    /** Their beans' maxConcurrency together: the orders' 8, the ledger's 4, the large orders' 2. */
    private static final int SAMPLE_CONCURRENCY = MAX_CONCURRENCY + 4 + 2;
    private static final int REDEPLOYMENTS = 20;
    private static final int ORDERS_PER_REDEPLOYMENT = 5;
    /**
     * Payara's own pools that size themselves by the work they get, so that their threads are not
     * compared from one redeployment to the next: the EJB container's {@code __ejb-thread-pool}
     * (a ThreadPoolExecutor with core size 16 and max 32, which starts a new core thread for each
     * task until it has 16, idle ones or not, and runs every undeployment's endpoint deactivation:
     * it grows by one per redeployment up to 16) and Payara's {@code Executor-Service} (up to 20
     * threads on a SynchronousQueue, those above 3 retiring after a minute idle), and the
     * {@code GF Domain XML} threads that write domain.xml after each deployment and undeployment
     * (5 more after 20 redeployments in one CI run, none in others; they run no adapter code, which
     * {@link #awaitNoAdapterThreads} checks on every thread).
     */
    private static final Pattern SELF_SIZING_POOLS =
            Pattern.compile("__ejb-thread-pool\\d+|Executor-Service-\\d+|GF Domain XML");
    /**
     * Other threads the Micro JVM may gain between the first and the last redeployment without a
     * leak: server threads started lazily or on timers (one more HTTP worker, a
     * managed-executor thread: 1 to 3 seen over 20 redeployments, 6 over 60). A leak of one thread per
     * deployment would add 19.
     */
    private static final int THREAD_SLACK = 5;
    /** About five polls of the sample's bean (maxPollInterval 1 s): a per-poll log would show 4 or more lines. */
    private static final Duration OUTAGE = Duration.ofSeconds(5);

    /** How long readiness may take to follow the database: a few of the sample's polls (maxPollInterval 1 s). */
    private static final Duration HEALTH_PATIENCE = Duration.ofSeconds(60);
    private static final String CONSUMER_CHECK = "sqlqueue-consumer ";
    private static final String OF_THE_ORDERS = "queue=" + QUEUE;
    private static final String FACTORY_CHECK = "sqlqueue-producer ";
    private static final String OF_THE_SAMPLE = "name=" + SampleDatabase.JNDI_NAME;

    private static Server h2;
    private static TcpForwarder database;
    private static MicroProcess micro;
    private static SampleClient sample;
    private static File sampleWar;
    /** The sample's database as Micro reaches it (through the forwarder): SQLQUEUE_SAMPLE_* of Micro's environment. */
    private static Map<String, String> sampleDatabase;

    @BeforeAll
    static void startMicroWithTheAdapterAndTheSample() throws Exception {
        File microJar = file("it.micro.jar", "Payara Micro");
        File rar = file("it.rar", "the adapter's .rar");
        sampleWar = file("it.sample.war", "the sample's .war");

        Map<String, String> environment = new HashMap<>();
        List<File> libraries = new ArrayList<>();
        String url = System.getenv("SQLQUEUE_SAMPLE_URL");
        if (url == null || url.isBlank()) {
            // -ifNotExists: H2 creates no database for a remote client otherwise
            h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
            database = new TcpForwarder("127.0.0.1", h2.getPort());
            environment.put("SQLQUEUE_SAMPLE_URL", "jdbc:h2:tcp://127.0.0.1:" + database.port()
                    + "/mem:lifecycle;DB_CLOSE_DELAY=-1");
            environment.put("SQLQUEUE_SAMPLE_DATASOURCE", "org.h2.jdbcx.JdbcDataSource");
            environment.put("SQLQUEUE_SAMPLE_USER", "sa");
            environment.put("SQLQUEUE_SAMPLE_PASSWORD", "sa");
        } else {
            Matcher pg = POSTGRESQL_URL.matcher(url);
            assumeTrue(pg.matches(), "SQLQUEUE_SAMPLE_URL names neither H2 (unset) nor jdbc:postgresql://host[:port]/…:"
                    + " the lifecycle tests forward only those");
            database = new TcpForwarder(pg.group(2), pg.group(3) == null ? 5432 : Integer.parseInt(pg.group(3)));
            // the other SQLQUEUE_SAMPLE_* variables of this run reach Micro unchanged
            environment.put("SQLQUEUE_SAMPLE_URL", pg.group(1) + "127.0.0.1:" + database.port() + pg.group(4));
            libraries.add(file("it.pg.jar", "the PostgreSQL driver"));
        }
        File tmp = new File(System.getProperty("java.io.tmpdir"), "lifecycle-micro");
        assertTrue(tmp.isDirectory() || tmp.mkdirs(), "cannot create " + tmp);

        sampleDatabase = new HashMap<>(Map.of("jdbcUrl", environment.get("SQLQUEUE_SAMPLE_URL")));
        for (String[] p : new String[][] {{"user", "SQLQUEUE_SAMPLE_USER"}, {"password", "SQLQUEUE_SAMPLE_PASSWORD"}}) {
            String value = environment.getOrDefault(p[1], System.getenv(p[1])); // PostgreSQL: the run's own
            if (value != null) {
                sampleDatabase.put(p[0], value);
            }
        }
        micro = MicroProcess.start(microJar, tmp, environment, libraries, BOOT_TIMEOUT);
        micro.deployAdapter(rar); // first: a WAR deployed before the adapter never activates its bean
        micro.deployWar(SAMPLE, sampleWar);
        sample = new SampleClient(micro.httpPort());
        LOG.info(() -> "LIFECYCLE Micro on port " + micro.httpPort() + ", sample database behind forwarder port "
                + database.port() + (h2 != null ? " (H2 TCP server port " + h2.getPort() + ")" : " (PostgreSQL)"));
    }

    @AfterAll
    static void stopEverything() throws Exception {
        try {
            if (micro != null) {
                micro.close();
            }
        } finally {
            if (database != null) {
                database.close();
            }
            if (h2 != null) {
                h2.stop();
            }
        }
    }

    /**
     * Undeploying the sample deactivates its bean's endpoint while its deliveries run: the
     * adapter must let them finish or roll back, so that after the redeployment every order is
     * processed exactly once.
     */
    @Test
    @Order(1)
    void deactivatingTheBeanWhileDeliveriesRunLosesNoMessage() throws Exception {
        Status before = sample.status();
        Status atUndeploy = queueOrdersThenLetTheBeanStart(before);
        Census busy = micro.threads();
        List<String> consumer = micro.consumers("status", QUEUE);

        long start = System.nanoTime();
        micro.undeploy(SAMPLE);
        long undeployMillis = (System.nanoTime() - start) / 1_000_000;
        micro.deployWar(SAMPLE, sampleWar);
        awaitStatus("the queue drained after the redeployment", s -> s.pending() == 0);
        Status after = sample.status().since(before); // read again: the last poll's counts were not one snapshot

        LOG.info(() -> "LIFECYCLE deactivation: at undeploy " + atUndeploy.since(before).processed() + " processed, "
                + atUndeploy.pending() + " pending, " + busy.threadsIn("inbound.Delivery.run") + " threads in"
                + " Delivery.run, consumer " + consumer + "; undeploy took " + undeployMillis + " ms; after the"
                + " redeployment " + after);
        assertTrue(atUndeploy.pending() > 0 && busy.threadsIn("inbound.Delivery.run") > 0,
                "deliveries were running and orders queued when the bean was deactivated: " + atUndeploy + ", "
                + busy.adapterThreads());
        assertEveryOrderProcessedOnce(after);
    }

    /**
     * Twenty undeploy/deploy cycles: after each undeployment no thread runs adapter or sample
     * code, after each deployment the bean processes new orders, and the server ends with about
     * the threads it had after the first cycle.
     */
    @Test
    @Order(2)
    void twentyRedeploymentsLeaveNoThreadBehindAndDeliveryKeepsWorking() throws Exception {
        List<Integer> liveThreads = new ArrayList<>();
        Census first = null, last = null;
        for (int cycle = 1; cycle <= REDEPLOYMENTS; cycle++) {
            micro.undeploy(SAMPLE);
            assertEquals(List.of(), awaitNoAdapterThreads(),
                    "cycle " + cycle + ": threads still in adapter or sample code after the undeployment");
            assertEquals(List.of(), micro.adapterBeans(),
                    "cycle " + cycle + ": the consumer, queue and producer beans go with the application");

            micro.deployWar(SAMPLE, sampleWar);
            Status before = sample.status();
            sample.place(ORDERS_PER_REDEPLOYMENT);
            awaitStatus("cycle " + cycle + "'s orders processed",
                    s -> s.pending() == 0 && s.since(before).processed() >= ORDERS_PER_REDEPLOYMENT);
            Status done = sample.status().since(before);
            assertEquals(ORDERS_PER_REDEPLOYMENT, done.processed(), "cycle " + cycle + ": orders processed");
            assertEquals(0, done.duplicates(), "cycle " + cycle + ": messages processed twice");
            last = micro.threads();
            first = first == null ? last : first;
            liveThreads.add(last.liveThreads());
        }

        Map<String, Long> growth = last.growthSince(first);
        int firstOthers = first.threadsOutside(SELF_SIZING_POOLS);
        int lastOthers = last.threadsOutside(SELF_SIZING_POOLS);
        LOG.info("LIFECYCLE redeployments: live threads after the first cycle " + first.liveThreads() + ", after the"
                + " last " + last.liveThreads() + " (outside Payara's self-sizing pools " + firstOthers + " and "
                + lastOthers + "); per cycle " + liveThreads + "; thread names more frequent at the end " + growth);
        assertTrue(lastOthers <= firstOthers + THREAD_SLACK, "threads outside Payara's self-sizing pools grew from "
                + firstOthers + " after the first cycle to " + lastOthers + " after the last (more than " + THREAD_SLACK
                + "); thread names more frequent at the end: " + growth);
    }

    /**
     * The database goes away for five seconds while the bean works off a backlog: its
     * poller backs off and reconnects, every stored order is processed exactly once, and the
     * adapter says so once per outage (a warning when the database goes, an info when it is
     * back), not once per poll.
     */
    @Test
    @Order(3)
    void aDatabaseOutageIsRiddenOutLoggedOnceAndLosesNothing() throws Exception {
        micro.takeLog(); // the earlier tests' records
        Status before = sample.status();
        Status atCut = queueOrdersThenLetTheBeanStart(before);
        Census busy = micro.threads();

        int connectionsCut = database.cut();
        pause(OUTAGE);
        database.restore();
        long restoredAt = System.currentTimeMillis();
        awaitStatus("the queue drained after the outage", s -> s.pending() == 0);
        long drainedAfter = System.currentTimeMillis() - restoredAt;
        Status after = sample.status().since(before);

        String backText = "the database of queue " + QUEUE + " is reachable again";
        List<String> log = awaitLogRecord("INFO", backText);
        List<String> unreachable = records(log, "WARNING", "cannot reach the database of queue " + QUEUE);
        List<String> back = records(log, "INFO", backText);
        List<String> stopped = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (String queue : SAMPLE_QUEUES) { // the sample's other beans see the outage too
            stopped.addAll(records(log, "WARNING", "delivery from " + queue + " stopped"));
            List<String> reported = records(log, "WARNING", "cannot reach the database of queue " + queue);
            assertTrue(reported.size() <= 2, "the outage reported at most twice per queue, not once per poll: "
                    + reported);
            expected.addAll(reported);
        }
        expected.addAll(stopped);
        List<String> otherWarnings = log.stream()
                .filter(l -> l.startsWith("WARNING") && !expected.contains(l))
                .collect(Collectors.toList());
        String backAfter = back.isEmpty() ? "never" : (millis(back.get(0)) - restoredAt) + " ms";
        LOG.info(() -> "LIFECYCLE outage: cut " + connectionsCut + " connections with " + atCut.since(before).processed()
                + " processed, " + atCut.pending() + " pending and " + busy.threadsIn("inbound.Delivery.run")
                + " threads in Delivery.run, for " + OUTAGE.toMillis() + " ms; the poller saw the database back "
                + backAfter + " and the queue drained " + drainedAfter + " ms after the restore; "
                + unreachable.size() + " 'cannot reach' warnings, " + back.size()
                + " 'reachable again' infos, " + stopped.size() + " 'delivery stopped' warnings, " + otherWarnings.size()
                + " other warnings; " + after);
        stopped.forEach(w -> LOG.info("LIFECYCLE outage, delivery stopped: " + w));

        assertTrue(connectionsCut > 0 && atCut.pending() > 0 && busy.threadsIn("inbound.Delivery.run") > 0,
                "the outage hit deliveries at work: " + connectionsCut + " connections cut, " + atCut + ", "
                + busy.adapterThreads());
        assertEveryOrderProcessedOnce(after);
        assertFalse(unreachable.isEmpty(), "the poller reported the outage: " + log);
        assertFalse(back.isEmpty(), "the poller reported the database back: " + log);
        // Each delivery running when the database went says so as it stops; none starts while the
        // pollers cannot reach the database, so there are at most the beans' maxConcurrency of these.
        assertTrue(stopped.size() <= SAMPLE_CONCURRENCY, "at most one warning per delivery in flight: " + stopped);
        assertEquals(List.of(), otherWarnings, "no other warnings from the adapter");
    }

    /**
     * What an orchestrator sees on Payara's {@code /health}: the order bean's readiness goes down
     * while its database is away and comes back with it, with no send needed; liveness stays up
     * throughout (the poller still turns, it only cannot reach the database); the sample's
     * connection factory has its check on {@code /health/ready} too. A factory's own way down needs
     * a send that fails in the factory, which the sample, storing the order first, never makes: a
     * WAR of the test's ({@link FactoryProbe}) sends through a factory of its own to the same
     * database, once before the outage (its check up), once during it (its check down, the
     * database unreachable), and its check comes back after the outage with no send, by its probe.
     */
    @Test
    @Order(4)
    void readinessGoesDownWhileTheDatabaseIsAwayAndComesBack() throws Exception {
        HealthEndpoint health = new HealthEndpoint(micro.httpPort());
        AtomicReference<Answer> last = new AtomicReference<>();
        micro.deployWar(FACTORY_PROBE, factoryProbeWar());
        try {
            sample.place(1); // the factory's check lives while its pool has connections: from its first send
            assertEquals(200, probeSend("?create=" + SampleDatabase.JNDI_NAME).statusCode());
            awaitHealth("ready, the order bean's, the sample factory's and the probe factory's checks up", health, last,
                    a -> a.httpStatus() == 200 && "UP".equals(a.check(CONSUMER_CHECK, OF_THE_ORDERS))
                    && "UP".equals(a.check(FACTORY_CHECK, OF_THE_SAMPLE)) && "UP".equals(a.check(FACTORY_CHECK, ofTheProbe())));
            Answer live = health.live();
            assertEquals(200, live.httpStatus(), live.body());
            assertEquals("UP", live.check(CONSUMER_CHECK, OF_THE_ORDERS), live.body());

            database.cut();
            Answer liveDuring;
            HttpResponse<String> failedSend;
            Answer factoryDown;
            try {
                awaitHealth("readiness down with the database away", health, last, a ->
                        a.httpStatus() == 503 && "DOWN".equals(a.check(CONSUMER_CHECK, OF_THE_ORDERS)));
                liveDuring = health.live();
                failedSend = probeSend("");
                awaitHealth("the probe factory's check down after its failed send", health, last, a ->
                        "DOWN".equals(a.check(FACTORY_CHECK, ofTheProbe())));
                factoryDown = last.get();
            } finally {
                database.restore();
            }
            Answer down = last.get();
            assertTrue(down.body().contains("\"lastLook\":\"failed\"") && down.body().contains("cannot reach the database"),
                    "the check's data says why: " + down.body());
            assertEquals(200, liveDuring.httpStatus(), "alive while the database is away: " + liveDuring.body());
            assertEquals("UP", liveDuring.check(CONSUMER_CHECK, OF_THE_ORDERS), liveDuring.body());
            assertEquals(500, failedSend.statusCode(), "the send with the database away: " + failedSend.body());
            assertTrue(factoryDown.body().contains("\"databaseUnreachable\":\"true\""),
                    "the factory's check data says why: " + factoryDown.body());

            awaitHealth("readiness back with the database, the probe factory's by its probe (no send)", health, last,
                    a -> a.httpStatus() == 200 && "UP".equals(a.check(CONSUMER_CHECK, OF_THE_ORDERS))
                    && "UP".equals(a.check(FACTORY_CHECK, OF_THE_SAMPLE)) && "UP".equals(a.check(FACTORY_CHECK, ofTheProbe())));
            LOG.info(() -> "LIFECYCLE health: down during the outage " + down.body() + "; factory down "
                    + factoryDown.body() + "; back " + last.get().body());
        } finally {
            micro.undeploy(FACTORY_PROBE);
        }
    }

    /** The probe factory's check names its JDBC URL, the forwarder's port in it. */
    private static String ofTheProbe() {
        return "127.0.0.1:" + database.port() + "/";
    }

    /** {@link FactoryProbe}'s WAR: its factory the adapter's own jdbcUrl connections to the sample's database. */
    private static File factoryProbeWar() {
        WebArchive war = ShrinkWrap.create(WebArchive.class, FACTORY_PROBE + ".war").addClass(FactoryProbe.class);
        Map<String, String> properties = new HashMap<>(sampleDatabase);
        properties.put("useXA", "false");
        properties.put("transactionSupportLevel", "NoTransaction");
        new WebXml(war.getName()).connectionFactory(FactoryProbe.FACTORY, "NoTransaction", 2, properties).addTo(war);
        return MicroProcess.exportWar(MicroProcess.workDirectory("lifecycle-micro"), war);
    }

    private static HttpResponse<String> probeSend(String query) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + micro.httpPort()
                + "/" + FACTORY_PROBE + "/send" + query)).POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Reads {@code /health/ready} until {@code done} holds, keeping the last answer in {@code last}. */
    private static void awaitHealth(String what, HealthEndpoint health, AtomicReference<Answer> last,
            Predicate<Answer> done) throws Exception {
        try {
            Await.until(what, HEALTH_PATIENCE, () -> {
                last.set(health.ready());
                return done.test(last.get());
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last answer " + last.get(), e);
        }
    }

    /**
     * Polls the sample's counts until {@code done} holds. A failed read (the database away, the
     * sample being redeployed) counts as not done yet.
     */
    private static Status awaitStatus(String what, Predicate<Status> done) {
        long deadline = System.nanoTime() + PROCESSING_TIMEOUT.toNanos();
        Object last = "nothing read";
        while (System.nanoTime() < deadline) {
            Duration next = POLL;
            try {
                Status s = sample.status();
                if (done.test(s)) {
                    return s;
                }
                last = s;
            } catch (IllegalStateException e) {
                last = e.getMessage();
                next = Duration.ofSeconds(1); // Micro logs each failed request with its stack trace
            }
            LockSupport.parkNanos(next.toNanos());
        }
        throw new AssertionError("not true within " + PROCESSING_TIMEOUT + ": " + what + "; last read: " + last);
    }

    /**
     * Queues {@link #ORDERS} orders while the bean is paused (through the adapter's Consumer
     * management bean), resumes it and returns once it has processed
     * {@link #PROCESSED_BEFORE_DISRUPTION}: its deliveries are then running with a backlog behind
     * them. Unpaused, the bean kept pace with the orders being placed (PostgreSQL, even against
     * ten concurrent requests), and a disruption found an empty queue.
     */
    private static Status queueOrdersThenLetTheBeanStart(Status before) throws Exception {
        micro.consumers("pause", QUEUE);
        try {
            sample.place(ORDERS);
        } finally {
            micro.consumers("resume", QUEUE);
        }
        return awaitStatus(PROCESSED_BEFORE_DISRUPTION + " orders processed",
                s -> s.since(before).processed() >= PROCESSED_BEFORE_DISRUPTION);
    }

    /**
     * The threads with adapter or sample frames, polled for up to ten seconds until there are
     * none: a work-manager thread signals the end of its poller to the deactivation a moment
     * before it leaves the poller's {@code run}.
     */
    private static List<String> awaitNoAdapterThreads() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> left = micro.threads().adapterThreads();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL.toNanos());
            left = micro.threads().adapterThreads();
        }
        return left;
    }

    private static void pause(Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * The adapter's log records, collected until one of this level containing {@code text} is
     * among them (or for at most 30 s: the caller's assertions then say what is missing).
     */
    private static List<String> awaitLogRecord(String level, String text) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<String> log = new ArrayList<>(micro.takeLog());
        while (records(log, level, text).isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL.toNanos());
            log.addAll(micro.takeLog());
        }
        return log;
    }

    /** Log lines ({@code LEVEL | millis | logger | message}) of a level whose message contains {@code text}. */
    private static List<String> records(List<String> log, String level, String text) {
        return log.stream().filter(l -> l.startsWith(level + " |") && l.contains(text)).collect(Collectors.toList());
    }

    private static long millis(String record) {
        return Long.parseLong(record.split(" \\| ", 3)[1]);
    }

    /** A file the pom names in a system property; skipped outside failsafe, failed when it is missing. */
    static File file(String property, String what) {
        String path = System.getProperty(property, "");
        assumeTrue(!path.isBlank(), what + ": system property " + property + " is not set (failsafe sets it from"
                + " src-it/pom.xml); run with mvn verify");
        File f = new File(path).getAbsoluteFile();
        assertTrue(f.isFile(), what + " not found at " + f + " (mvn -B install -DskipTests -pl adapter,ejb-sample -am)");
        return f;
    }

    /** All {@link #ORDERS} orders stored and processed once each, none left or dead-lettered. */
    private static void assertEveryOrderProcessedOnce(Status after) {
        assertEquals(ORDERS, after.sent(), "orders stored");
        assertEquals(ORDERS, after.processed(), "orders processed (distinct message ids)");
        assertEquals(0, after.duplicates(), "messages processed twice");
        assertEquals(0, after.pending(), "messages left in the queue");
        assertEquals(0, after.deadLettered(), "messages dead-lettered");
    }
}
