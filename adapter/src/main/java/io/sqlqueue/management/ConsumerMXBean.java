package io.sqlqueue.management;

/**
 * One message-driven bean's consumption of one queue (one activation), registered on the platform
 * MBean server as {@code io.sqlqueue:type=Consumer,database=<database>,queue=<queue>,name=<bean class>} while the bean
 * is deployed. Counts start at zero at activation. Latencies are over the last
 * {@link RecentDurations#CAPACITY} deliveries. Thread-safe. Each attribute's {@link Description} is
 * what JMX consoles and {@code /metrics} show for it.
 */
public interface ConsumerMXBean {

    /** The text of the six percentile attributes of enqueue to onMessage latency. */
    String LATENCY = "Time from enqueue (by the database's clock) to the start of onMessage, first attempts and"
            + " retries alike; a percentile over the last " + RecentDurations.CAPACITY + " deliveries";
    String PROCESSING = "Time in onMessage (or onMessages); a percentile over the last " + RecentDurations.CAPACITY
            + " deliveries";

    @Description("The queue consumed")
    String getQueue();

    @Description("The database: the JNDI name of the server resource, or the JDBC URL without secrets")
    String getDatabase();

    @Description("The message-driven bean's class")
    String getEndpoint();

    @Description("Messages whose delivery transaction committed (leased: acknowledged), since the activation")
    long getCommitted();

    @Description("Deliveries that rolled back or threw (leased: gave the message back), since the activation;"
            + " each message is retried or dead-lettered")
    long getRolledBack();

    @Description("Messages this consumer moved to the dead-letter table after their last attempt, since the activation")
    long getDeadLettered();

    /** Counted by its claims and by its poller's expiry sweep. */
    @Description("Messages whose time to live had run out that this consumer dead-lettered or discarded"
            + " (its expiredMessages) instead of delivering, since the activation")
    long getExpired();

    @Description("Messages in the bean's hands now")
    int getInFlight();

    @Description("Looks at the queue by the idle poller, since the activation")
    long getPolls();

    @Description("Looks that found nothing ready, since the activation")
    long getEmptyPolls();

    /**
     * Each time its wait ends (the poll interval passed, or a send or a finished delivery woke it)
     * while paused: shows that a paused consumer's poller is alive and honouring the pause.
     */
    @Description("Turns of the paused poller, each without a look at the queue, since the activation")
    long getPausedPolls();

    @Description(LATENCY)
    double getLatencyP50Millis();

    @Description(LATENCY)
    double getLatencyP95Millis();

    @Description(LATENCY)
    double getLatencyP99Millis();

    @Description(PROCESSING)
    double getProcessingP50Millis();

    @Description(PROCESSING)
    double getProcessingP95Millis();

    @Description(PROCESSING)
    double getProcessingP99Millis();

    @Description("The last failure: a delivery's exception, or why the database could not be reached; empty if none")
    String getLastError();

    @Description("Whether the consumer is paused: it starts no delivery until resume()")
    boolean isPaused();

    /** The activation's circuit breaker, circuitBreakerFailures above 0; never open when that is 0. */
    @Description("Whether the circuit breaker is open: after circuitBreakerFailures failed deliveries in a row, one"
            + " delivery at a time after a growing pause, failures not counted against the messages, until one"
            + " succeeds")
    boolean isCircuitOpen();

    /** Counted with the breaker off too, to choose a threshold by. */
    @Description("Failed deliveries in a row (the bean threw or rolled back); 0 after one that succeeds")
    int getConsecutiveFailures();

    @Description("When the circuit breaker opened (ISO-8601, UTC); empty while it is closed")
    String getCircuitOpenedAt();

    /** What Payara's {@code /health/ready} shows for this consumer: {@link ConsumerHealth} says when it is up. */
    @Description("UP when the database answered the poller's last look at the queue (paused or not), else DOWN;"
            + " then the check's data")
    String getReadiness();

    /** What Payara's {@code /health/live} shows for this consumer. */
    @Description("UP while the poller turns (or deliveries are in the bean's hands) within its limit, else DOWN;"
            + " then the check's data")
    String getLiveness();

    /**
     * Stops taking messages: deliveries in progress finish their message, no new one starts
     * within one poll interval. Messages stay in the queue. Undeploying is not needed.
     */
    void pause();

    /** Takes messages again after {@link #pause()}. */
    void resume();
}
