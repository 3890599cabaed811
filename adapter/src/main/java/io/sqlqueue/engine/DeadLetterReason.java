package io.sqlqueue.engine;

/**
 * Why messages were dead-lettered, as their dead-letter rows say: the reason text
 * ({@code last_error}) and the class of the exception that said so ({@code error_class}); either
 * may be null (a row written by hand; an expiry, an undecodable row or leases that ran out name no
 * exception). Dead letters with the same reason form one {@link DeadLetterGroup}.
 *
 * <p>Texts compare as the database compares the columns: on SQL Server's usual collations
 * without case and trailing spaces, so such texts form one group there.
 *
 * @param reason     the {@code last_error} text, or null
 * @param errorClass the exception's class name, or null
 */
public record DeadLetterReason(String reason, String errorClass) {

    /** The condition that a dead-letter row, its columns read with {@code prefix}, has this reason. */
    String condition(String prefix) {
        return (reason == null ? prefix + "last_error IS NULL" : prefix + "last_error = :reason") + " AND "
                + (errorClass == null ? prefix + "error_class IS NULL" : prefix + "error_class = :errorClass");
    }

    /** Binds the parameters of {@link #condition}. */
    void bind(SqlTemplate.Bound b) throws java.sql.SQLException {
        b.setString("reason", reason).setString("errorClass", errorClass);
    }
}
