package io.sqlqueue.api;

/**
 * The message listener of a message-driven bean that consumes a queue:
 *
 * <pre>{@code
 * @MessageDriven(activationConfig = {
 *     @ActivationConfigProperty(propertyName = "queue", propertyValue = "orders"),
 *     @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = "java:global/jdbc/shop")})
 * public class OrderConsumer implements QueueListener {
 *     public void onMessage(QueueMessage message) { ... }
 * }
 * }</pre>
 *
 * <p><b>Transactions.</b> With container-managed transactions (the default, REQUIRED) the message
 * is taken from the queue inside the bean's transaction: if {@code onMessage} returns and the
 * transaction commits, the message is gone together with whatever the bean wrote; if it throws or
 * the transaction is marked rollback-only, the message comes back and is retried after a back-off,
 * up to the activation's {@code maxAttempts}, then moved to the dead-letter table. Without a
 * container transaction (bean-managed, or NOT_SUPPORTED) the message is leased: returning
 * acknowledges it, throwing gives it back for a retry; delivery is then at least once.
 *
 * <p>One message per call; calls for one bean instance come from one thread at a time.
 */
public interface QueueListener {

    void onMessage(QueueMessage message);
}
