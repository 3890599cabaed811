package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.management.ConsumerHealth;
import io.sqlqueue.management.ConsumerHealth.LastLook;
import io.sqlqueue.management.ConsumerMXBean;
import io.sqlqueue.management.HealthReport;
import io.sqlqueue.management.LivenessCheck;
import io.sqlqueue.management.ReadinessCheck;
import io.sqlqueue.management.RecentDurations;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * An activation's figures, written by its poller and deliveries, read through JMX, and its health
 * checks ({@link ConsumerHealth} says what they report).
 */
final class ConsumerMonitor implements ConsumerMXBean, ReadinessCheck, LivenessCheck {

    private final QueueActivation activation;
    private final DeliveryConnections connections;
    private final MessageEndpointFactory factory;
    private final ActivationSettings settings;
    private final LongAdder committed = new LongAdder();
    private final LongAdder rolledBack = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final LongAdder expired = new LongAdder();
    private final LongAdder polls = new LongAdder();
    private final LongAdder emptyPolls = new LongAdder();
    private final LongAdder pausedPolls = new LongAdder();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final RecentDurations latency = new RecentDurations();
    private final RecentDurations processing = new RecentDurations();
    private volatile String lastError = "";
    private volatile LastLook lastLook = LastLook.NONE_YET;
    /** System.nanoTime() of the poller's last turn or a delivery's progress; the activation to begin with. */
    private volatile long lastTurnNanos = System.nanoTime();

    ConsumerMonitor(QueueActivation activation) {
        this.activation = activation;
        this.connections = activation.connections;
        this.factory = activation.factory;
        this.settings = activation.settings;
    }

    private void turned() {
        lastTurnNanos = System.nanoTime();
    }

    // ---- written by the poller and the deliveries ----------------------------------------------

    void polled(boolean ready) {
        turned();
        lastLook = LastLook.ANSWERED;
        polls.increment();
        if (!ready) {
            emptyPolls.increment();
        }
    }

    /** The poller found the consumer paused and looks at nothing until its next wait ends. */
    void pausedPoll() {
        turned();
        pausedPolls.increment();
    }

    /** The poller waits out the circuit breaker's pause: a turn, which liveness looks for. */
    void circuitPause() {
        turned();
    }

    /** Messages handed to the bean now; returns the start time for {@link #processed}. */
    long delivering(List<QueueMessage> messages) {
        turned();
        Instant now = Instant.now();
        for (QueueMessage m : messages) {
            latency.record(Duration.between(m.enqueuedAt(), now).toNanos());
        }
        inFlight.addAndGet(messages.size());
        return System.nanoTime();
    }

    void processed(int messages, long startNanos) {
        turned();
        processing.record(System.nanoTime() - startNanos);
        inFlight.addAndGet(-messages);
    }

    void committed(int messages) {
        committed.add(messages);
    }

    void rolledBack(int messages, String error) {
        rolledBack.add(messages);
        lastError = error;
    }

    void deadLettered() {
        deadLettered.increment();
    }

    /** Expired messages removed by the expiry sweep: dead-lettered too, unless discarded. */
    void swept(int messages, boolean discarded) {
        expired.add(messages);
        if (!discarded) {
            deadLettered.add(messages);
        }
    }

    void expired(int messages) {
        expired.add(messages);
    }

    /** A delivery's or an outcome's failure: it says nothing of the poller's look at the queue. */
    void failed(String error) {
        lastError = error;
    }

    /** The poller's look at the queue failed for want of the database: not ready until one answers. */
    void databaseUnreachable(String error) {
        turned();
        lastLook = LastLook.FAILED;
        lastError = "cannot reach the database: " + error;
    }

    // ---- read by the health checks ------------------------------------------------------------

    @Override
    public HealthReport readiness() {
        return ConsumerHealth.readiness(facts());
    }

    @Override
    public HealthReport liveness() {
        return ConsumerHealth.liveness(facts());
    }

    private ConsumerHealth.Facts facts() {
        CircuitBreaker breaker = activation.breaker;
        ConsumerHealth.Circuit circuit = !breaker.enabled() ? ConsumerHealth.Circuit.OFF
                : breaker.isOpen() ? ConsumerHealth.Circuit.OPEN : ConsumerHealth.Circuit.CLOSED;
        return new ConsumerHealth.Facts(getQueue(), getDatabase(), getEndpoint(), isPaused(), circuit, lastLook,
                lastError, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastTurnNanos), getInFlight(),
                settings.maxPollInterval());
    }

    // ---- read through JMX ---------------------------------------------------------------------

    @Override
    public String getQueue() {
        return settings.queue();
    }

    @Override
    public String getDatabase() {
        return connections.database();
    }

    @Override
    public String getEndpoint() {
        Class<?> bean = factory.getEndpointClass();
        return bean == null ? "" : bean.getName();
    }

    @Override
    public long getCommitted() {
        return committed.sum();
    }

    @Override
    public long getRolledBack() {
        return rolledBack.sum();
    }

    @Override
    public long getDeadLettered() {
        return deadLettered.sum();
    }

    @Override
    public long getExpired() {
        return expired.sum();
    }

    @Override
    public int getInFlight() {
        return inFlight.get();
    }

    @Override
    public long getPolls() {
        return polls.sum();
    }

    @Override
    public long getEmptyPolls() {
        return emptyPolls.sum();
    }

    @Override
    public long getPausedPolls() {
        return pausedPolls.sum();
    }

    @Override
    public double getLatencyP50Millis() {
        return latency.percentileMillis(50);
    }

    @Override
    public double getLatencyP95Millis() {
        return latency.percentileMillis(95);
    }

    @Override
    public double getLatencyP99Millis() {
        return latency.percentileMillis(99);
    }

    @Override
    public double getProcessingP50Millis() {
        return processing.percentileMillis(50);
    }

    @Override
    public double getProcessingP95Millis() {
        return processing.percentileMillis(95);
    }

    @Override
    public double getProcessingP99Millis() {
        return processing.percentileMillis(99);
    }

    @Override
    public String getLastError() {
        return lastError;
    }

    @Override
    public boolean isCircuitOpen() {
        return activation.breaker.isOpen();
    }

    @Override
    public int getConsecutiveFailures() {
        return activation.breaker.consecutiveFailures();
    }

    @Override
    public String getCircuitOpenedAt() {
        Instant openedAt = activation.breaker.openedAt();
        return openedAt == null ? "" : openedAt.toString();
    }

    @Override
    public String getReadiness() {
        return readiness().summary();
    }

    @Override
    public String getLiveness() {
        return liveness().summary();
    }

    @Override
    public boolean isPaused() {
        return activation.paused();
    }

    @Override
    public void pause() {
        activation.setPaused(true);
    }

    @Override
    public void resume() {
        activation.setPaused(false);
    }
}
