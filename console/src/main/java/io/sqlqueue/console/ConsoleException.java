package io.sqlqueue.console;

/** An operation the adapter refused or could not do; the message is the adapter's, shown to the operator. */
public final class ConsoleException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConsoleException(String message, Throwable cause) {
        super(message, cause);
    }
}
