package io.sqlqueue.api;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message taken from a queue, as delivered to a listener. Immutable and thread-safe.
 *
 * <p>{@link #attempt()} counts deliveries: 1 the first time, 2 after one failed delivery, and so
 * on; a listener can use it to treat a redelivery differently.
 */
public final class QueueMessage {

    private final long id;
    private final String queue;
    private final byte[] body;
    private final Map<String, String> headers;
    private final Instant enqueuedAt;
    private final int attempt;
    private final String orderingKey;
    private final int priority;
    private final Instant expiresAt;

    /**
     * Created by the adapter; applications receive instances, they do not build them (a test may:
     * the message then has priority 0, no expiry and no ordering key).
     */
    public QueueMessage(long id, String queue, byte[] body, Map<String, String> headers, Instant enqueuedAt,
            int attempt) {
        this(id, queue, body, headers, enqueuedAt, attempt, null);
    }

    /** As the other constructor, with the message's ordering key ({@code null} for none). */
    public QueueMessage(long id, String queue, byte[] body, Map<String, String> headers, Instant enqueuedAt,
            int attempt, String orderingKey) {
        this(id, queue, body, headers, enqueuedAt, attempt, orderingKey, 0, null);
    }

    /**
     * As the other constructors, with the message's priority and the instant it expires
     * ({@code null}: never).
     */
    public QueueMessage(long id, String queue, byte[] body, Map<String, String> headers, Instant enqueuedAt,
            int attempt, String orderingKey, int priority, Instant expiresAt) {
        this.id = id;
        this.queue = Objects.requireNonNull(queue, "queue");
        this.body = Objects.requireNonNull(body, "body");
        this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        this.enqueuedAt = Objects.requireNonNull(enqueuedAt, "enqueuedAt");
        this.attempt = attempt;
        this.orderingKey = orderingKey;
        this.priority = priority;
        this.expiresAt = expiresAt;
    }

    /** The id the enqueue returned: unique within the queue, increasing in enqueue order. */
    public long id() {
        return id;
    }

    /** The queue's name as configured (e.g. {@code orders} or {@code sales.orders}). */
    public String queue() {
        return queue;
    }

    /** The body (a copy). */
    public byte[] body() {
        return body.clone();
    }

    /** The body decoded as UTF-8. */
    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    public Map<String, String> headers() {
        return headers;
    }

    /** When the message was enqueued, by the database clock. */
    public Instant enqueuedAt() {
        return enqueuedAt;
    }

    /** Which delivery this is: 1 for the first. */
    public int attempt() {
        return attempt;
    }

    /** The ordering key it was sent with, or {@code null}. */
    public String orderingKey() {
        return orderingKey;
    }

    /**
     * The priority it was sent with ({@link OutgoingMessage#priority()}, the row's {@code priority}
     * column): higher is delivered first. 0 unless the sender set one.
     */
    public int priority() {
        return priority;
    }

    /**
     * When its time to live runs out ({@link OutgoingMessage.Builder#timeToLive}), by the
     * database's clock, or {@code null}: it never expires. A message is not delivered once it has
     * expired, so this is after the delivery began (by that clock).
     */
    public Instant expiresAt() {
        return expiresAt;
    }

    @Override
    public String toString() {
        return "QueueMessage[id=" + id + ", queue=" + queue + ", " + body.length + " bytes, attempt=" + attempt + "]";
    }
}
