package io.sqlqueue.management;

/**
 * One connection factory's sends and cancels, registered as {@code io.sqlqueue:type=Producer,name=<database>}
 * (its {@code dataSourceJndiName}, or its JDBC URL without secrets) while the factory has open
 * connections in the server's pool: from the first connection until the pool is emptied, as on
 * undeploy. Counts survive that. Latencies are over the last {@link RecentDurations#CAPACITY}
 * sends. Thread-safe. Each attribute's {@link Description} is what JMX consoles and
 * {@code /metrics} show for it.
 */
public interface ProducerMXBean {

    /** The text of the three percentile attributes of a send's duration. */
    String SEND = "Time of one send call (a message or a batch); a percentile over the last "
            + RecentDurations.CAPACITY + " sends";

    @Description("Where the factory sends to: its dataSourceJndiName or JDBC URL")
    String getFactory();

    @Description("Messages sent by the factory; whether their transactions committed is not known here")
    long getSent();

    @Description("Messages cancelled through the factory (removed by cancel or cancelByDedupKey); whether their"
            + " transactions committed is not known here")
    long getCancelled();

    @Description("Sends, publishes and cancels that failed with a QueueException (a cancel refused for a message in"
            + " delivery is not one)")
    long getErrors();

    @Description(SEND)
    double getSendP50Millis();

    @Description(SEND)
    double getSendP95Millis();

    @Description(SEND)
    double getSendP99Millis();

    @Description("The last send failure; empty if none")
    String getLastError();

    /** What Payara's {@code /health/ready} shows for this factory; reading it may run the bounded probe. */
    @Description("UP unless a send failed and the database has not answered a probe connection since; then the"
            + " check's data")
    String getReadiness();
}
