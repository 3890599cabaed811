package io.sqlqueue.api;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message to enqueue: a body, optional headers, a delay, a priority, an optional time to
 * live, an optional deduplication key and an optional ordering key. Built with
 * {@link #bytes(byte[])} or {@link #text(String)}:
 *
 * <pre>{@code
 * OutgoingMessage m = OutgoingMessage.text("{\"order\":42}")
 *         .header("type", "order-created")
 *         .delay(Duration.ofSeconds(30))
 *         .priority(5)
 *         .timeToLive(Duration.ofMinutes(10))
 *         .dedupKey("order-42")
 *         .orderingKey("customer-7")
 *         .build();
 * }</pre>
 *
 * <p>Every value is checked when it is set, so a bad message fails with an
 * {@link IllegalArgumentException} naming the problem before anything reaches the database.
 * Instances are immutable and thread-safe; builders are not.
 */
public final class OutgoingMessage {

    /** Lowest and highest priority (the column is a SMALLINT). Higher is delivered first. */
    public static final int MIN_PRIORITY = Short.MIN_VALUE, MAX_PRIORITY = Short.MAX_VALUE;
    /** The longest delay accepted: about ten years. */
    public static final Duration MAX_DELAY = Duration.ofDays(3650);
    /** The longest deduplication key accepted, in characters (the column is NVARCHAR(200)). */
    public static final int MAX_DEDUP_KEY_LENGTH = 200;
    /** The longest ordering key accepted, in characters (the column is NVARCHAR(200)). */
    public static final int MAX_ORDERING_KEY_LENGTH = 200;

    private final byte[] body;
    private final Map<String, String> headers;
    private final Duration delay;
    private final int priority;
    private final String dedupKey;
    private final Duration timeToLive;
    private final String orderingKey;

    private OutgoingMessage(Builder b) {
        this.body = b.body;
        this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
        this.delay = b.delay;
        this.priority = b.priority;
        this.dedupKey = b.dedupKey;
        this.timeToLive = b.timeToLive;
        this.orderingKey = b.orderingKey;
    }

    /** Starts a message whose body is these bytes (copied). */
    public static Builder bytes(byte[] body) {
        if (body == null) {
            throw new IllegalArgumentException("message body must not be null");
        }
        return new Builder(body.clone());
    }

    /** Starts a message whose body is this text, stored as UTF-8. */
    public static Builder text(String body) {
        if (body == null) {
            throw new IllegalArgumentException("message body must not be null");
        }
        return new Builder(body.getBytes(StandardCharsets.UTF_8));
    }

    /** The body (a copy). */
    public byte[] body() {
        return body.clone();
    }

    public Map<String, String> headers() {
        return headers;
    }

    /** How long after the enqueue commits the message becomes visible; zero for at once. */
    public Duration delay() {
        return delay;
    }

    public int priority() {
        return priority;
    }

    /** The deduplication key, or {@code null}. */
    public String dedupKey() {
        return dedupKey;
    }

    /** How long after it is sent the message expires, or {@code null}: never. */
    public Duration timeToLive() {
        return timeToLive;
    }

    /** The ordering key, or {@code null}: see {@link Builder#orderingKey(String)}. */
    public String orderingKey() {
        return orderingKey;
    }

    @Override
    public String toString() {
        return "OutgoingMessage[" + body.length + " bytes, headers=" + headers + ", delay=" + delay
                + ", priority=" + priority + (dedupKey == null ? "" : ", dedupKey=" + dedupKey)
                + (timeToLive == null ? "" : ", timeToLive=" + timeToLive)
                + (orderingKey == null ? "" : ", orderingKey=" + orderingKey) + "]";
    }

    /** Sets the optional parts of an {@link OutgoingMessage}. Not thread-safe. */
    public static final class Builder {
        private final byte[] body;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private Duration delay = Duration.ZERO;
        private int priority;
        private String dedupKey;
        private Duration timeToLive;
        private String orderingKey;

        private Builder(byte[] body) {
            this.body = body;
        }

        /** Adds a header; names are non-empty, values non-null. A repeated name replaces. */
        public Builder header(String name, String value) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("header name must not be null or empty");
            }
            if (value == null) {
                throw new IllegalArgumentException("header '" + name + "' must not have a null value");
            }
            headers.put(name, value);
            return this;
        }

        /** Adds every entry of {@code headers}, checked as by {@link #header(String, String)}. */
        public Builder headers(Map<String, String> headers) {
            Objects.requireNonNull(headers, "headers");
            headers.forEach(this::header);
            return this;
        }

        /** Delays visibility; between zero and {@link #MAX_DELAY}, millisecond precision. */
        public Builder delay(Duration delay) {
            if (delay == null || delay.isNegative()) {
                throw new IllegalArgumentException("delay must be zero or positive, was " + delay);
            }
            if (delay.compareTo(MAX_DELAY) > 0) {
                throw new IllegalArgumentException("delay must be at most " + MAX_DELAY + ", was " + delay);
            }
            this.delay = delay;
            return this;
        }

        /** Higher priorities are delivered first; FIFO within a priority. Default 0. */
        public Builder priority(int priority) {
            if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
                throw new IllegalArgumentException("priority must be between " + MIN_PRIORITY + " and "
                        + MAX_PRIORITY + ", was " + priority);
            }
            this.priority = priority;
            return this;
        }

        /**
         * Makes the enqueue idempotent: while a message with this key is still in the queue,
         * enqueuing another with the same key returns the first one's id and writes nothing.
         */
        public Builder dedupKey(String dedupKey) {
            this.dedupKey = key("dedupKey", dedupKey, MAX_DEDUP_KEY_LENGTH);
            return this;
        }

        private static String key(String name, String key, int maxLength) {
            if (key == null || key.isEmpty() || key.length() > maxLength) {
                throw new IllegalArgumentException(name + " must be 1 to " + maxLength + " characters, was "
                        + (key == null ? "null" : key.length() + " characters"));
            }
            return key;
        }

        /**
         * Makes the message expire this long after it is sent (by the database's clock): from then
         * on it is never delivered, and it moves to the dead-letter table with the reason
         * "expired" when a consumer comes across it. Between 1 ms and {@link #MAX_DELAY}; longer
         * than the delay, checked by {@link #build()}. Default: never expires.
         */
        public Builder timeToLive(Duration timeToLive) {
            if (timeToLive == null || timeToLive.toMillis() < 1 || timeToLive.compareTo(MAX_DELAY) > 0) {
                throw new IllegalArgumentException("timeToLive must be between 1 ms and " + MAX_DELAY + ", was "
                        + timeToLive);
            }
            this.timeToLive = timeToLive;
            return this;
        }

        /**
         * Puts the message in the sequence of its key (a customer, an account, an aggregate): a
         * consumer with ordered delivery turned on ({@code orderedDelivery}) delivers the messages
         * of one key one at a time, in the order they were sent, while messages of different keys
         * (and messages without a key) are delivered in parallel. A message that fails holds back
         * the later messages of its key through its retries, until it is delivered or moved to the
         * dead-letter table. "The order they were sent" is the order of their ids: the order of
         * the sends of one transaction, or of transactions that commit one after the other; sends
         * of one key from transactions running at the same time have no order between them.
         * Priorities do not reorder the messages of one key. 1 to {@link #MAX_ORDERING_KEY_LENGTH}
         * characters. Default: none.
         */
        public Builder orderingKey(String orderingKey) {
            this.orderingKey = key("orderingKey", orderingKey, MAX_ORDERING_KEY_LENGTH);
            return this;
        }

        /**
         * The message.
         *
         * @throws IllegalArgumentException when the time to live is not longer than the delay: the
         *                                  message would expire before it could be delivered
         */
        public OutgoingMessage build() {
            if (timeToLive != null && timeToLive.compareTo(delay) <= 0) {
                throw new IllegalArgumentException("timeToLive (" + timeToLive + ") must be longer than the delay ("
                        + delay + "): the message would expire before it could be delivered");
            }
            return new OutgoingMessage(this);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutgoingMessage m && Arrays.equals(body, m.body) && headers.equals(m.headers)
                && delay.equals(m.delay) && priority == m.priority && Objects.equals(dedupKey, m.dedupKey)
                && Objects.equals(timeToLive, m.timeToLive) && Objects.equals(orderingKey, m.orderingKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(body), headers, delay, priority, dedupKey, timeToLive, orderingKey);
    }
}
