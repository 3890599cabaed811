package io.sqlqueue.it.lifecycle;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample's REST face, as a user drives it: {@code POST /sample/api/orders?count=N} places
 * orders, {@code GET /sample/api/orders/status} counts them from its tables.
 */
final class SampleClient {

    /**
     * The sample's counts: orders stored, distinct messages recorded as processed, extra records
     * of an already processed message, messages still queued, messages dead-lettered.
     */
    record Status(long sent, long processed, long duplicates, long pending, long deadLettered) {

        private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(-?\\d+)");

        static Status parse(String json) {
            long sent = -1, processed = -1, duplicates = -1, pending = -1, dead = -1;
            Matcher m = FIELD.matcher(json);
            while (m.find()) {
                long value = Long.parseLong(m.group(2));
                switch (m.group(1)) {
                    case "sent" -> sent = value;
                    case "processed" -> processed = value;
                    case "duplicates" -> duplicates = value;
                    case "pending" -> pending = value;
                    case "deadLettered" -> dead = value;
                    default -> { }
                }
            }
            if (sent < 0 || processed < 0 || duplicates < 0 || pending < 0 || dead < 0) {
                throw new IllegalStateException("not the sample's status: " + json);
            }
            return new Status(sent, processed, duplicates, pending, dead);
        }

        /** What happened since {@code before} (pending stays absolute: it is a level, not a total). */
        Status since(Status before) {
            return new Status(sent - before.sent, processed - before.processed, duplicates - before.duplicates,
                    pending, deadLettered - before.deadLettered);
        }
    }

    private static final Pattern PRE = Pattern.compile("<pre>(.*?)</pre>", Pattern.DOTALL);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final URI orders;

    SampleClient(int port) {
        this.orders = URI.create("http://127.0.0.1:" + port + "/sample/api/orders");
    }

    /** Stores and queues {@code count} valid orders (in transactions of 100); returns the counts after. */
    Status place(int count) {
        return Status.parse(send(HttpRequest.newBuilder(URI.create(orders + "?count=" + count + "&invalid=0"))
                .timeout(Duration.ofMinutes(5)).POST(HttpRequest.BodyPublishers.noBody()).build()));
    }

    Status status() {
        return Status.parse(send(HttpRequest.newBuilder(URI.create(orders + "/status"))
                .timeout(Duration.ofSeconds(30)).GET().build()));
    }

    /** The exception in Payara's HTML error page (its first {@code <pre>}), or the body's start. */
    private static String cause(String body) {
        Matcher pre = PRE.matcher(body);
        return pre.find() ? pre.group(1) : body.substring(0, Math.min(200, body.length()));
    }

    private String send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(request.method() + " " + request.uri() + " answered "
                        + response.statusCode() + ": " + cause(response.body()));
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
