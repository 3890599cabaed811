package io.sqlqueue.api;

/**
 * A queue operation failed: the database could not be reached or refused the statement, or the
 * connection was used after it was closed. Unchecked, like {@code JMSRuntimeException}; the cause
 * carries the driver's exception. Bad arguments fail with {@link IllegalArgumentException} instead.
 */
public class QueueException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public QueueException(String message) {
        super(message);
    }

    public QueueException(String message, Throwable cause) {
        super(message, cause);
    }
}
