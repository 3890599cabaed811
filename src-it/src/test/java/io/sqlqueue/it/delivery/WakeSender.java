package io.sqlqueue.it.delivery;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;

/**
 * Sends through the adapter's connection factory (declared in the test's web.xml), whose
 * commit wakes the queue's pollers.
 */
@Stateless
public class WakeSender {
    static final String FACTORY = "java:app/queue/wake";

    @Resource(lookup = FACTORY)
    private QueueConnectionFactory queues;

    public void send(String text) {
        try (QueueConnection c = queues.getConnection()) {
            c.send("wake_q", text);
        }
    }
}
