package io.sqlqueue.outbound.jms;

import jakarta.jms.JMSException;
import jakarta.jms.Session;

/**
 * The mode a session or context gets, by the specification's rules for Jakarta EE (Jakarta
 * Messaging 3.1, 12.3): in a JTA transaction the requested mode is ignored and the sends join the
 * transaction (as the server's own broker does, so {@code @Inject JMSContext} works); outside one,
 * a session that is not transacted sends each message at once, and a transacted one (a local JMS
 * transaction, ended by {@code commit}) is refused, naming what to do instead.
 */
final class SessionModes {

    private SessionModes() {
    }

    /**
     * @param requested a session mode: {@code SESSION_TRANSACTED}, {@code AUTO_ACKNOWLEDGE},
     *                  {@code CLIENT_ACKNOWLEDGE} or {@code DUPS_OK_ACKNOWLEDGE}
     * @return {@code SESSION_TRANSACTED} in a transaction, else {@code requested}
     * @throws JMSException for a transacted session outside a transaction, or an unknown mode
     */
    static int of(boolean inTransaction, int requested, String operation) throws JMSException {
        if (inTransaction) {
            return Session.SESSION_TRANSACTED;
        }
        return switch (requested) {
            case Session.AUTO_ACKNOWLEDGE, Session.CLIENT_ACKNOWLEDGE, Session.DUPS_OK_ACKNOWLEDGE -> requested;
            case Session.SESSION_TRANSACTED -> throw Refusals.unsupported(operation + " of a transacted session outside"
                    + " a JTA transaction (a local JMS transaction, ended by commit or rollback)", "send inside a JTA"
                    + " transaction (a transactional bean method, or UserTransaction), whose commit commits the"
                    + " sends, or in a session that is not transacted, whose sends commit at once");
            default -> throw new JMSException(operation + ": session mode " + requested + " is not one of"
                    + " SESSION_TRANSACTED (0), AUTO_ACKNOWLEDGE (1), CLIENT_ACKNOWLEDGE (2) or DUPS_OK_ACKNOWLEDGE (3)");
        };
    }
}
