package io.sqlqueue.api;

/**
 * A cancel ({@link QueueConnection#cancel}, {@link QueueConnection#cancelByDedupKey}) was refused
 * because a consumer has the message in delivery: it is leased by a consumer whose lease has not
 * run out (in a delivery, or leased ahead for one), or a consumer's transaction holds it. Nothing
 * was removed or changed, and the caller's transaction is untouched: catch this exception and go
 * on, or let it end the transaction. The delivery goes on undisturbed: it commits, or it fails and
 * the message is retried like any failed delivery; a cancel tried again later returns
 * {@code false} once the message is delivered, and {@code true} while it waits for its retry.
 *
 * <p>Like every {@link QueueException} it is unchecked: an EJB container that sees it leave a
 * business method rolls the transaction back, as for any system exception.
 */
public class MessageInDeliveryException extends QueueException {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final long messageId;
    private final String dedupKey;

    /**
     * @param queue     the queue, as the caller named it
     * @param messageId the message's id, or 0 when the cancel was by dedup key and the id is not known
     * @param dedupKey  the dedup key the cancel named, or {@code null} for a cancel by id
     * @param message   what happened, for people
     */
    public MessageInDeliveryException(String queue, long messageId, String dedupKey, String message) {
        super(message);
        this.queue = queue;
        this.messageId = messageId;
        this.dedupKey = dedupKey;
    }

    /** The queue the cancel named. */
    public String queue() {
        return queue;
    }

    /** The message's id; 0 when the cancel was by dedup key and the database did not say it. */
    public long messageId() {
        return messageId;
    }

    /** The dedup key the cancel named; {@code null} for a cancel by id. */
    public String dedupKey() {
        return dedupKey;
    }
}
