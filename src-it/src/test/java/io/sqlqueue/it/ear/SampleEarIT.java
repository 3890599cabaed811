package io.sqlqueue.it.ear;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.it.harness.Await;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample's EAR as built ({@code ear/target/sqlqueue-sample.ear}), deployed unchanged on a
 * full server, used over HTTP as a user would, then undeployed and deployed again twenty times: each
 * time the orders are processed once each and the invalid ones dead-lettered, after each
 * undeployment no thread runs the adapter's code any more, and in the end the retired
 * deployments' class loaders have not accumulated.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@EnabledIfSystemProperty(named = "it.server", matches = "payara-server|wildfly",
        disabledReason = "an EAR test: Payara Micro cannot deploy EARs")
class SampleEarIT {

    private static final int REDEPLOYMENTS = 20;
    /** Half of them: a leak keeps them all, idle pool threads a few ({@link #assertRetiredClassLoadersDoNotAccumulate}). */
    private static final int MOST_RETIRED_LOADERS_LEFT = REDEPLOYMENTS / 2;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Deployment(name = "probe", order = 1, testable = false)
    static WebArchive probe() {
        return ShrinkWrap.create(WebArchive.class, "thread-probe.war").addClasses(AdapterThreadsServlet.class,
                ClassLoadersServlet.class);
    }

    @Deployment(name = "sample", managed = false, testable = false)
    static EnterpriseArchive sample() {
        File ear = new File(System.getProperty("it.sample.ear"));
        assertTrue(ear.isFile(), "the sample's EAR (mvn package builds it): " + ear);
        return ShrinkWrap.createFromZipFile(EnterpriseArchive.class, ear);
    }

    @ArquillianResource
    private Deployer deployer;

    @Test
    void ordersAreProcessedOnceAfterEveryRedeploymentAndNoAdapterThreadOutlivesTheApplication(
            @ArquillianResource @OperateOnDeployment("probe") URL probe) throws Exception {
        URI server = probe.toURI().resolve("/");
        for (int round = 1; round <= REDEPLOYMENTS; round++) {
            deployer.deploy("sample");
            try {
                String before = get(server.resolve("/sample/api/orders/status"));
                post(server.resolve("/sample/api/orders?count=200&invalid=3&customer=round" + round));
                Await.until("round " + round + ": 197 processed and 3 dead-lettered", Duration.ofMinutes(1), () -> {
                    String now = get(server.resolve("/sample/api/orders/status"));
                    return figure(now, "processed") >= figure(before, "processed") + 197
                            && figure(now, "deadLettered") >= figure(before, "deadLettered") + 3;
                });
                String after = get(server.resolve("/sample/api/orders/status"));
                assertEquals(figure(before, "sent") + 200, figure(after, "sent"), "round " + round + ": " + after);
                assertEquals(figure(before, "processed") + 197, figure(after, "processed"), "round " + round + ": " + after);
                assertEquals(figure(before, "deadLettered") + 3, figure(after, "deadLettered"), "round " + round + ": " + after);
                assertEquals(0, figure(after, "duplicates"), "round " + round + ": " + after);
                assertEquals(0, figure(after, "pending"), "round " + round + ": " + after);
                if (round == REDEPLOYMENTS) {
                    assertTrue(classLoadersHolding(probe.toURI(), "io.sqlqueue.sample.OrderProcessor") >= 1,
                            "the census sees the deployed application's class loader");
                }
            } finally {
                deployer.undeploy("sample");
            }
            // a pool thread may still be returning from the adapter's last frame for a moment
            Await.until("round " + round + ": no thread runs the adapter's code 10 s after the undeployment",
                    Duration.ofSeconds(10), () -> get(probe.toURI().resolve("adapter-threads")).isEmpty());
        }
        assertRetiredClassLoadersDoNotAccumulate(probe.toURI());
    }

    /**
     * After the redeployments, the retired deployments' class loaders do not accumulate: a leak
     * keeps one per redeployment, 20 here, so at most half may be left. Heap dumps (paths from GC
     * roots) showed what holds a few for a while, none of it the adapter's doing, and bounded by
     * the servers' pools rather than by the number of deployments. WildFly: idle pool threads
     * (its JCA work threads, "default-threads - n", and Undertow's "default task-n") keep the last
     * task they ran in a stack frame, with the context class loader it was submitted under, until
     * they run another (5 of 20 in one run, 4 in its dump, one more through a JDK method-handle
     * cache); the probe WAR's own module linkage to the adapter's module. Payara Server: an idle
     * "RA Shutdown" pool thread created while an adapter stopped, which inherited that adapter's
     * class loader as its context class loader until it retires (60 s idle).
     */
    private static void assertRetiredClassLoadersDoNotAccumulate(URI probe) throws Exception {
        for (String className : new String[] {"io.sqlqueue.QueueResourceAdapter",
                "io.sqlqueue.sample.OrderProcessor"}) {
            int[] holding = {-1};
            try {
                Await.until("at most " + MOST_RETIRED_LOADERS_LEFT + " class loaders of " + REDEPLOYMENTS
                        + " undeployed applications still hold " + className, Duration.ofMinutes(3),
                        () -> (holding[0] = classLoadersHolding(probe, className)) <= MOST_RETIRED_LOADERS_LEFT);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + " (" + holding[0] + " do)", e);
            }
            System.out.println("SampleEarIT: " + classLoadersHolding(probe, className) + " class loaders hold "
                    + className + " after " + REDEPLOYMENTS + " redeployments");
        }
    }

    private static int classLoadersHolding(URI probe, String className) throws Exception {
        return Integer.parseInt(get(probe.resolve("class-loaders?class=" + className)).trim());
    }

    private static long figure(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return Long.parseLong(m.group(1));
    }

    private static String get(URI uri) throws Exception {
        return send(HttpRequest.newBuilder(uri).GET().build());
    }

    private static String post(URI uri) throws Exception {
        return send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private static String send(HttpRequest request) throws Exception {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), request.uri() + ": " + response.body());
        return response.body();
    }
}
