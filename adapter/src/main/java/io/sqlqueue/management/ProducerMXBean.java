package io.sqlqueue.management;

/**
 * One connection factory's sends, registered as {@code io.sqlqueue:type=Producer,name=<database>}
 * (its {@code dataSourceJndiName}, or its JDBC URL without secrets) while the factory has open
 * connections in the server's pool: from the first connection until the pool is emptied, as on
 * undeploy. Counts survive that. Latencies are over the last {@link RecentDurations#CAPACITY}
 * sends. Thread-safe.
 */
public interface ProducerMXBean {

    /** Where the factory sends to: its dataSourceJndiName or JDBC URL. */
    String getFactory();

    /** Messages sent; whether their transactions committed is not known here. */
    long getSent();

    /** Sends that failed with a {@code QueueException}. */
    long getErrors();

    /** Time of one send call (a message or a batch), median in ms. */
    double getSendP50Millis();

    double getSendP95Millis();

    double getSendP99Millis();

    /** The last send failure; empty if none. */
    String getLastError();
}
