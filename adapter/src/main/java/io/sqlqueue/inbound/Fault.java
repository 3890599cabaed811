package io.sqlqueue.inbound;

/**
 * Why a transacted delivery did not commit, decided once, where the throwable was caught.
 *
 * <p>The <b>bean's</b> fault counts as a failed attempt of its messages: {@code onMessage} threw,
 * or the bean's transaction rolled back or failed to commit ({@code setRollbackOnly}, a timeout,
 * another of its resources). The <b>adapter's</b> fault does not: its own statements failed (the
 * database, a journal row that cannot be written) or the container refused before the bean ran;
 * the messages go back uncounted and the poller waits a little.
 *
 * @param bean whether the fault is the bean's
 * @param cause what was thrown; null when the transaction rolled back with nothing thrown
 */
record Fault(boolean bean, Throwable cause) {

    /** {@code onMessage} threw {@code cause}. */
    static Fault ofBean(Throwable cause) {
        return new Fault(true, cause);
    }

    /** The transaction rolled back, or its commit failed with {@code cause} (null: nothing was thrown). */
    static Fault ofTransaction(Throwable cause) {
        return new Fault(true, cause);
    }

    /** The adapter's own statement, or the container before the bean, threw {@code cause}. */
    static Fault ofAdapter(Throwable cause) {
        return new Fault(false, cause);
    }

    /** How the failure is recorded against the messages, by {@code policy}. */
    io.sqlqueue.engine.DeliveryFailure failure(ExceptionPolicy policy) {
        return cause == null ? io.sqlqueue.engine.DeliveryFailure.retryable(describe()) : policy.failure(cause);
    }

    /** What the consumer bean's LastError and the failure records say. */
    String describe() {
        return cause == null ? "the transaction rolled back (setRollbackOnly, a timeout or a failed commit)"
                : Delivery.describe(cause);
    }
}
