package io.sqlqueue.api;

/**
 * Thrown by a listener to say that its message can never succeed (a validation error, a customer
 * that does not exist): the message moves to the dead-letter table at once, with this exception's
 * message as its reason and its class name as its {@code error_class}, instead of being retried
 * until {@code maxAttempts}. Subclass it to group such failures by class.
 *
 * <p>Like any exception out of {@code onMessage}, it rolls back the bean's transaction: the bean's
 * own writes are undone, and the message is dead-lettered in a transaction of the adapter's. For a
 * {@link BatchQueueListener}, every message of the batch is dead-lettered. The container may wrap
 * it (an {@code EJBException}): the adapter looks for it along the cause chain.
 */
public class UnrecoverableMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param reason why the message can never succeed: the dead-letter row's reason */
    public UnrecoverableMessageException(String reason) {
        super(reason);
    }

    /**
     * @param reason why the message can never succeed: the dead-letter row's reason
     * @param cause  what was found wrong, kept for the server's log
     */
    public UnrecoverableMessageException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
