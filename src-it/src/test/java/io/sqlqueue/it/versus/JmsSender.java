package io.sqlqueue.it.versus;

import jakarta.ejb.Stateless;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/** Sends persistent messages to the benchmark's JMS queue, a chunk per container transaction. */
@Stateless
public class JmsSender {

    /** Sends the numbers {@code from} to {@code from + count - 1} as text messages, in this transaction. */
    public void send(String factoryJndiName, String queueJndiName, long from, int count) throws NamingException {
        ConnectionFactory factory = InitialContext.doLookup(factoryJndiName);
        Queue queue = InitialContext.doLookup(queueJndiName);
        try (JMSContext context = factory.createContext()) {
            JMSProducer producer = context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT);
            for (long n = from; n < from + count; n++) {
                producer.send(queue, Long.toString(n));
            }
        }
    }
}
