package io.sqlqueue.management;

/**
 * One message-driven bean's consumption of one queue (one activation), registered on the platform
 * MBean server as {@code io.sqlqueue:type=Consumer,database=<database>,queue=<queue>,name=<bean class>} while the bean
 * is deployed. Counts start at zero at activation. Latencies are over the last
 * {@link RecentDurations#CAPACITY} deliveries. Thread-safe.
 */
public interface ConsumerMXBean {

    String getQueue();

    /** The JNDI name of the server resource, or the JDBC URL without secrets. */
    String getDatabase();

    /** The message-driven bean's class. */
    String getEndpoint();

    /** Messages whose delivery transaction committed (leased: acknowledged). */
    long getCommitted();

    /** Messages whose delivery rolled back or threw (leased: given back); each is retried or dead-lettered. */
    long getRolledBack();

    /** Messages this consumer moved to the dead-letter table after their last attempt. */
    long getDeadLettered();

    /**
     * Messages whose time to live had run out that this consumer removed instead of delivering
     * (dead-lettered or discarded, as its {@code expiredMessages} says), by its claims and by its
     * poller's expiry sweep.
     */
    long getExpired();

    /** Messages in the bean's hands right now. */
    int getInFlight();

    /** Looks at the queue by the idle poller. */
    long getPolls();

    /** Looks that found nothing ready. */
    long getEmptyPolls();

    /**
     * Looks the poller did not take because the consumer was paused: each time its wait ends (the
     * poll interval passed, or a send or a finished delivery woke it) while paused. Shows that a
     * paused consumer's poller is alive and honouring the pause.
     */
    long getPausedPolls();

    /** From enqueue (the database's clock) to the start of onMessage, median in ms; first attempts and retries alike. */
    double getLatencyP50Millis();

    double getLatencyP95Millis();

    double getLatencyP99Millis();

    /** Time in onMessage (or onMessages), median in ms. */
    double getProcessingP50Millis();

    double getProcessingP95Millis();

    double getProcessingP99Millis();

    /** The last failure: a delivery's exception, or why the database could not be reached; empty if none. */
    String getLastError();

    boolean isPaused();

    /**
     * Stops taking messages: deliveries in progress finish their message, no new one starts
     * within one poll interval. Messages stay in the queue. Undeploying is not needed.
     */
    void pause();

    /** Takes messages again after {@link #pause()}. */
    void resume();
}
