package io.sqlqueue.outbound.jms;

import java.io.Serializable;

/**
 * Whether the calling thread is in a JTA transaction: asked when a JMS session or context is
 * made, since the specification gives its arguments meaning only outside one. Serializable with
 * the connection factory that holds it.
 */
@FunctionalInterface
public interface TransactionProbe extends Serializable {

    boolean inTransaction();
}
