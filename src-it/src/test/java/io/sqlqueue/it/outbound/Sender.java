package io.sqlqueue.it.outbound;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Sends through connection factories of each transaction support, the way applications do. The
 * factories are declared in the test's web.xml ({@link OutboundIT#deployment()}), for the
 * database of the run.
 */
@Stateless
public class Sender {

    static final String XA = "java:app/queue/xa";
    static final String LOCAL = "java:app/queue/local";
    static final String NONE = "java:app/queue/none";
    static final String WRONG_PASSWORD = "java:app/queue/wrong";
    static final String BAD_URL = "java:app/queue/bad-url";
    static final String SECRET = "Not-The-Password-42";

    @Resource
    private SessionContext context;

    private static QueueConnectionFactory factory(String name) throws NamingException {
        return InitialContext.doLookup(name);
    }

    public long send(String factory, String queue, OutgoingMessage message) throws NamingException {
        try (QueueConnection c = factory(factory).getConnection()) {
            return c.send(queue, message);
        }
    }

    public void sendThenThrow(String factory, String queue) throws NamingException {
        send(factory, queue, OutgoingMessage.text("rolled back by an exception").build());
        throw new IllegalStateException("the business transaction fails after the send");
    }

    public void sendThenSetRollbackOnly(String factory, String queue) throws NamingException {
        send(factory, queue, OutgoingMessage.text("rolled back by setRollbackOnly").build());
        context.setRollbackOnly();
    }

    /** Each send in its own transaction: connections go back to the pool every time. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sendMany(String factory, String queue, int n) throws NamingException {
        QueueConnectionFactory f = factory(factory);
        for (int i = 0; i < n; i++) {
            try (QueueConnection c = f.getConnection()) {
                c.send(queue, "m" + i);
            }
        }
    }
}
