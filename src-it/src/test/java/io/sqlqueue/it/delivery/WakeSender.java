package io.sqlqueue.it.delivery;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import jakarta.ejb.Stateless;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Sends through the adapter's connection factory (declared in the test's web.xml), whose
 * commit wakes the queue's pollers.
 */
@Stateless
public class WakeSender {
    static final String FACTORY = "java:app/queue/wake";

    // Looked up, not injected: in an EAR, Payara Server fails the deployment of a @Resource field of
    // a factory declared in web.xml ("Naming binding already exists for ...WakeSender/queues").
    public void send(String text) throws NamingException {
        QueueConnectionFactory queues = InitialContext.doLookup(FACTORY);
        try (QueueConnection c = queues.getConnection()) {
            c.send("wake_q", text);
        }
    }
}
