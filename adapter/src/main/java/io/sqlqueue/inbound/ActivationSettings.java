package io.sqlqueue.inbound;

import io.sqlqueue.engine.MessageSelector;
import io.sqlqueue.engine.RetryPolicy;
import java.time.Duration;

/**
 * An activation's settings, read once from its validated {@link QueueActivationSpec} when the bean
 * is activated: the spec is a JavaBean a server may still change, and each part of the activation
 * reads these values, never the spec. Immutable.
 *
 * @param queue the queue table consumed (a topic subscription's queue when {@code subscription} is set)
 * @param deadLetterQueue the dead-letter table; null for the queue's own ({@code _dlq})
 * @param retryPolicy attempts and back-off, as the engine takes them
 * @param exceptionPolicy which failures are retried and which dead-letter at once
 * @param maxConcurrency delivery threads at most
 * @param claimSize messages per delivery: the batch size for a batch bean, else 1
 * @param pollInterval milliseconds between peeks while messages come, and the first idle wait
 * @param maxPollInterval milliseconds of the longest idle wait
 * @param leaseTime how long leased messages stay hidden from other consumers
 * @param leaseAhead messages a delivery thread leases at once ({@code leaseAhead} for a one-message
 *        bean without ordered delivery, else {@code claimSize})
 * @param ordered one message of an ordering key at a time, in the order sent
 * @param discardsExpired expired messages deleted rather than dead-lettered
 * @param createQueue the tables created when missing, else checked
 * @param journal whether the completion journal is written
 * @param journalRetention how long journal rows are kept
 * @param subscription the topic subscription consumed, or null
 * @param selector which messages of the queue the bean takes, or null for all (a subscription's
 *        filter selects at publish instead)
 * @param circuitBreakerFailures consecutive failed deliveries that open the {@link CircuitBreaker}; 0: off
 * @param circuitBreakerMaxPause milliseconds the pause between deliveries grows to at most while it is open
 * @param description the settings for the activation's log line, without the password
 */
record ActivationSettings(String queue, String deadLetterQueue, RetryPolicy retryPolicy,
        ExceptionPolicy exceptionPolicy, int maxConcurrency,
        int claimSize, long pollInterval, long maxPollInterval, Duration leaseTime, int leaseAhead, boolean ordered,
        boolean discardsExpired, boolean createQueue, boolean journal, Duration journalRetention,
        Subscription subscription, MessageSelector selector, int circuitBreakerFailures, long circuitBreakerMaxPause, String description) {

    /** A durable subscription to a topic, whose queue the activation consumes. */
    record Subscription(String topic, String name, String filter) {
    }

    /**
     * How many messages a thread leases at once: {@code leaseAhead} for a one-message bean, else one
     * delivery's. Not with maxAttempts 1, where the attempt a crash charges to each message leased
     * ahead would dead-letter it.
     */
    private static int leaseAhead(QueueActivationSpec spec, int claimSize, boolean oneDeliveryAtATime) {
        return oneDeliveryAtATime || spec.getMaxAttempts() < 2 ? claimSize : spec.getLeaseAhead();
    }

    /** The settings of {@code spec}, which must have been validated; {@code batch}: a batch bean. */
    static ActivationSettings of(QueueActivationSpec spec, boolean batch) {
        boolean ordered = Boolean.TRUE.equals(spec.getOrderedDelivery());
        int claimSize = batch ? spec.getBatchSize() : 1;
        return new ActivationSettings(spec.getQueue(),
                spec.getDeadLetterQueue().isEmpty() ? null : spec.getDeadLetterQueue(), spec.retryPolicy(),
                spec.exceptionPolicy(),
                spec.getMaxConcurrency(), claimSize, spec.getPollInterval(), spec.getMaxPollInterval(),
                Duration.ofMillis(spec.getLeaseTime()), leaseAhead(spec, claimSize, batch || ordered), ordered,
                spec.discardsExpired(),
                Boolean.TRUE.equals(spec.getCreateQueue()), Boolean.TRUE.equals(spec.getJournal()),
                Duration.ofMillis(spec.getJournalRetention()),
                spec.subscribes() ? new Subscription(spec.getTopic(), spec.getSubscriptionName(),
                        spec.effectiveSubscriptionFilter()) : null, spec.queueSelector(),
                spec.getCircuitBreakerFailures(), spec.getCircuitBreakerMaxPause(), spec.toString());
    }
}
