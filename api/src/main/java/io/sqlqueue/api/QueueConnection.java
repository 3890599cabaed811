package io.sqlqueue.api;

import java.util.List;

/**
 * A connection to the queues, from {@link QueueConnectionFactory#getConnection()}. Close it when
 * done (try-with-resources); closing returns the underlying connection to the server's pool.
 *
 * <p><b>Transactions.</b> Inside a JTA transaction a send commits or rolls back with it: the
 * message exists for consumers only once the transaction commits. Outside one, a send commits
 * at once. With a factory configured with {@code dataSourceJndiName}, the insert runs on a
 * connection of that server JDBC resource and joins the caller's transaction exactly as the
 * application's own statements on that resource do: one connection and one local transaction for
 * both, without XA.
 *
 * <p><b>Queues.</b> A queue is a table named as configured ({@code orders} or
 * {@code sales.orders}); it must exist (an activation with {@code createQueue=true} creates it).
 * A topic's subscriptions are rows of the table {@code sqlqueue_subscriptions} in its schema,
 * each with a queue of its own, {@code <topic>_<subscription>}.
 *
 * <p><b>Errors.</b> {@link IllegalArgumentException} for a bad queue name or message, before
 * anything is written; {@link QueueException} when the database fails or the connection is closed.
 *
 * <p><b>Threads.</b> Not thread-safe: use a connection on one thread, like a JDBC connection.
 */
public interface QueueConnection extends AutoCloseable {

    /** Enqueues a message; returns its id (or, for a duplicate dedup key, the queued message's id). */
    long send(String queue, OutgoingMessage message);

    /** Enqueues a UTF-8 text message with no headers, delay or priority; returns its id. */
    default long send(String queue, String text) {
        return send(queue, OutgoingMessage.text(text).build());
    }

    /** Enqueues messages in order, in batches; returns their ids in the same order. */
    long[] sendAll(String queue, List<OutgoingMessage> messages);

    /**
     * Publishes a message to a topic: a copy goes into the queue of every durable subscription of
     * the topic whose filter matches the message's headers, in the caller's transaction like a
     * send (all copies or none). Subscriptions made after this publish do not get it. Returns how
     * many subscriptions it reached (0: the message went nowhere).
     *
     * @param topic {@code prices} or {@code sales.prices}: letters, digits and underscores
     */
    int publish(String topic, OutgoingMessage message);

    /** Returns the connection to the pool. Closing twice does nothing. */
    @Override
    void close();
}
