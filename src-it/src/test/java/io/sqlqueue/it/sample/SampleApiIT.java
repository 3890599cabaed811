package io.sqlqueue.it.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample's HTTP API as a client sees it: a missing, malformed or out-of-range parameter is
 * answered with 400 and an {@code application/problem+json} body naming the parameter and what it
 * allows (never an HTML page, never 404), an unknown path with a problem too, and a good request
 * with the status.
 */
@ExtendWith(ArquillianExtension.class)
class SampleApiIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return SampleIT.deployment();
    }

    @ArquillianResource
    private URL base;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpResponse<String> post(String query) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "api/orders" + query))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(1)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void assertProblem(HttpResponse<String> r, int status, String parameter, String detail) {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse("").split(";")[0],
                r.body());
        assertTrue(r.body().contains("\"status\":" + status), r.body());
        if (parameter != null) {
            assertTrue(r.body().contains("\"parameter\":\"" + parameter + "\""), r.body());
        }
        assertTrue(r.body().contains("\"detail\":\"" + detail), r.body());
    }

    @Test
    void badParametersAreAnsweredWith400AndAProblemNamingTheParameterAndItsRange() throws Exception {
        assertProblem(post(""), 400, "count", "count is required: how many orders to place, 1 to 1000000");
        assertProblem(post("?count=abc"), 400, "count", "count must be an integer from 1 to 1000000, was 'abc'");
        assertProblem(post("?count=-1"), 400, "count", "count must be an integer from 1 to 1000000, was '-1'");
        assertProblem(post("?count=1000001"), 400, "count", "count must be an integer from 1 to 1000000");
        assertProblem(post("?count=99999999999999999999"), 400, "count", "count must be an integer");
        assertProblem(post("?count=2&invalid=3"), 400, "invalid", "invalid must be an integer from 0 to 2, was '3'");
        assertProblem(post("?count=2&invalid=x%22y"), 400, "invalid", "invalid must be an integer from 0 to 2,"
                + " was 'x\\\"y'");
        assertProblem(post("?count=2&customer=" + "c".repeat(201)), 400, "customer", "customer must be 1 to 200");
    }

    @Test
    void anUnknownPathIsAProblemToo() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "api/orders/nothing-here"))
                .timeout(Duration.ofMinutes(1)).build(), HttpResponse.BodyHandlers.ofString());
        assertProblem(r, 404, null, "");
    }

    @Test
    void aGoodRequestPlacesTheOrdersAndAnswersTheStatus() throws Exception {
        HttpResponse<String> r = post("?count=3&invalid=1&customer=api");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("{\"sent\":"), r.body());
        HttpResponse<String> status = http.send(HttpRequest.newBuilder(URI.create(base + "api/orders/status"))
                .timeout(Duration.ofMinutes(1)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, status.statusCode());
        assertTrue(status.body().contains("\"ledgerOutOfOrder\":"), status.body());
    }
}
