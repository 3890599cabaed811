package io.sqlqueue.it.lifecycle;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Payara's MicroProfile Health endpoints as an orchestrator reads them: {@code /health/ready} and
 * {@code /health/live}, 200 with every check UP, 503 with any DOWN.
 */
final class HealthEndpoint {

    /** One answer: the HTTP status, each check's status by name, and the body for messages. */
    record Answer(int httpStatus, Map<String, String> checks, String body) {

        /** The status of the one check whose name starts with {@code prefix} and contains {@code part}; null: none. */
        String check(String prefix, String part) {
            return checks.entrySet().stream().filter(e -> e.getKey().startsWith(prefix) && e.getKey().contains(part))
                    .map(Map.Entry::getValue).reduce((a, b) -> {
                        throw new IllegalStateException("more than one check " + prefix + "…" + part + " in " + body);
                    }).orElse(null);
        }
    }

    /** Payara writes each check as {@code {"name":…,"status":…,"data":{…}}}. */
    private static final Pattern CHECK = Pattern.compile("\"name\":\"((?:[^\"\\\\]|\\\\.)*)\",\"status\":\"(UP|DOWN)\"");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    HealthEndpoint(int port) {
        this.base = "http://127.0.0.1:" + port + "/health/";
    }

    Answer ready() throws IOException, InterruptedException {
        return read("ready");
    }

    Answer live() throws IOException, InterruptedException {
        return read("live");
    }

    private Answer read(String kind) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + kind))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        Map<String, String> checks = new TreeMap<>();
        Matcher m = CHECK.matcher(response.body());
        while (m.find()) {
            checks.put(m.group(1).replace("\\/", "/").replace("\\\"", "\""), m.group(2));
        }
        return new Answer(response.statusCode(), checks, response.body());
    }
}
