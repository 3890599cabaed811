package io.sqlqueue.engine;

/**
 * Why a delivery failed, as the queue records it: {@code error} becomes the row's
 * {@code last_error} (and the dead-letter row's reason), {@code errorClass} the dead-letter row's
 * {@code error_class}, so that failures can be grouped.
 *
 * @param error         what happened, for people; never null
 * @param errorClass    the class name of the exception that says so, or null when nothing was thrown
 * @param unrecoverable the message goes to the dead-letter table now, whatever attempts it has left
 */
public record DeliveryFailure(String error, String errorClass, boolean unrecoverable) {

    public DeliveryFailure {
        if (error == null) {
            error = "unknown error";
        }
    }

    /** A failure that is retried while attempts are left, with no exception to name. */
    public static DeliveryFailure retryable(String error) {
        return new DeliveryFailure(error, null, false);
    }
}
