package io.sqlqueue.api;

import java.io.Serializable;
import javax.naming.Referenceable;

/**
 * The resource applications inject to enqueue messages:
 *
 * <pre>{@code
 * @Resource(lookup = "java:app/queue/orders")
 * QueueConnectionFactory queues;
 *
 * try (QueueConnection c = queues.getConnection()) {
 *     c.send("orders", OutgoingMessage.text(json).header("type", "order-created").build());
 * }
 * }</pre>
 *
 * Thread-safe: share one instance. See {@link QueueConnection} for the transaction contract.
 */
public interface QueueConnectionFactory extends Serializable, Referenceable {

    /**
     * A connection from the server's pool, enlisted in the caller's transaction if there is one.
     *
     * @throws QueueException naming the cause when no connection can be had (wrong URL or
     *         password, database down, pool exhausted)
     */
    QueueConnection getConnection();
}
