package io.sqlqueue.it.bench;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** When each expected message (by its text) reached a consumer, in {@link System#nanoTime()}. */
final class Arrivals {

    private final Map<String, CompletableFuture<Long>> expected = new ConcurrentHashMap<>();

    /** Call before sending {@code text}. */
    void expect(String text) {
        expected.put(text, new CompletableFuture<>());
    }

    void arrived(String text) {
        long now = System.nanoTime();
        CompletableFuture<Long> f = expected.get(text);
        if (f != null) {
            f.complete(now);
        }
    }

    long awaitArrival(String text, Duration timeout) throws Exception {
        try {
            return expected.get(text).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            expected.remove(text);
        }
    }
}
