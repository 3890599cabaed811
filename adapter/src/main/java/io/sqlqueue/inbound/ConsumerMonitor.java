package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.management.ConsumerMXBean;
import io.sqlqueue.management.RecentDurations;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** An activation's figures, written by its poller and deliveries, read through JMX. */
final class ConsumerMonitor implements ConsumerMXBean {

    private final QueueActivation activation;
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

    ConsumerMonitor(QueueActivation activation) {
        this.activation = activation;
    }

    // ---- written by the poller and the deliveries ----------------------------------------------

    void polled(boolean ready) {
        polls.increment();
        if (!ready) {
            emptyPolls.increment();
        }
    }

    /** The poller found the consumer paused and looks at nothing until its next wait ends. */
    void pausedPoll() {
        pausedPolls.increment();
    }

    /** Messages handed to the bean now; returns the start time for {@link #processed}. */
    long delivering(List<QueueMessage> messages) {
        Instant now = Instant.now();
        for (QueueMessage m : messages) {
            latency.record(Duration.between(m.enqueuedAt(), now).toNanos());
        }
        inFlight.addAndGet(messages.size());
        return System.nanoTime();
    }

    void processed(int messages, long startNanos) {
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

    void failed(String error) {
        lastError = error;
    }

    // ---- read through JMX ---------------------------------------------------------------------

    @Override
    public String getQueue() {
        return activation.settings.queue();
    }

    @Override
    public String getDatabase() {
        return activation.connections.database();
    }

    @Override
    public String getEndpoint() {
        Class<?> bean = activation.factory.getEndpointClass();
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
