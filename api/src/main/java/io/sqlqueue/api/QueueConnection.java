package io.sqlqueue.api;

import java.util.List;

/**
 * A connection to the queues, from {@link QueueConnectionFactory#getConnection()}. Close it when
 * done (try-with-resources); closing returns the underlying connection to the server's pool.
 *
 * <p><b>Transactions.</b> Inside a JTA transaction a send (or a cancel) commits or rolls back
 * with it: the message exists for consumers only once the transaction commits. Outside one, a send
 * commits at once. With a factory configured with {@code dataSourceJndiName}, the insert runs on a
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
 * anything is written; {@link QueueException} when the database fails or the connection is closed;
 * its subclass {@link MessageInDeliveryException} when a cancel finds the message in delivery.
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

    /**
     * Cancels a queued message: deletes it from the queue, in the caller's transaction like a send
     * (inside a JTA transaction the cancel commits or rolls back with it, and until then consumers
     * pass over the message; outside one it commits at once). For a message that is no longer
     * wanted: a saga's timeout once the awaited event has arrived, a delayed reminder. A message
     * that waits for its time (sent with a delay) or for a retry after a failed delivery is
     * cancelled like a ready one. A cancelled message is deleted, not dead-lettered, and once the
     * cancel commits its dedup key is free for a new send.
     *
     * <p>A message a consumer has in delivery is not cancelled: see
     * {@link MessageInDeliveryException}. A consumer that already holds the message is never
     * disturbed, and the cancel does not wait for it where the database can pass over a row a
     * transaction holds. (On SQL Server with {@code READ_COMMITTED_SNAPSHOT} off, a message that a
     * transacted delivery in progress has already taken reads as no longer queued: {@code false},
     * though a rollback of that delivery would bring it back for a retry.) A consumer whose lease
     * ran out no longer holds the message: it is cancelled, and that consumer's late
     * acknowledgement finds nothing, as when another consumer has taken the message over.
     *
     * @param queue     {@code orders} or {@code sales.orders}
     * @param messageId the id {@link #send} returned
     * @return {@code true} when this call removed the message; {@code false} when the queue has no
     *         such message: delivered, dead-lettered or expired, cancelled already, never sent, or
     *         sent by a transaction that has not committed yet
     * @throws MessageInDeliveryException when a consumer has the message in delivery; nothing changed
     * @throws IllegalArgumentException for a bad queue name, before anything is written
     * @throws QueueException when the database fails or the connection is closed
     */
    boolean cancel(String queue, long messageId);

    /**
     * Cancels the queued message that was sent with this dedup key, exactly as {@link #cancel}
     * does. Keys compare as Java's {@code String.equals}, as sends compare them: case, accents and
     * trailing spaces count, whatever the database's collation.
     *
     * @param dedupKey 1 to {@value OutgoingMessage#MAX_DEDUP_KEY_LENGTH} characters, as a send takes it
     * @return {@code true} when this call removed the message; {@code false} when no queued message
     *         has this key
     * @throws MessageInDeliveryException when a consumer has the message in delivery; nothing changed
     * @throws IllegalArgumentException for a bad queue name or a null, empty or too long key, before
     *         anything is written
     * @throws QueueException when the database fails or the connection is closed
     */
    boolean cancelByDedupKey(String queue, String dedupKey);

    /** Returns the connection to the pool. Closing twice does nothing. */
    @Override
    void close();
}
