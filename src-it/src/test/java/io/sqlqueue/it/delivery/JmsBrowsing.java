package io.sqlqueue.it.delivery;

import jakarta.ejb.Stateless;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Sends to and browses the queue {@value #QUEUE}, which no bean consumes, through the adapter's
 * JMS connection factory {@value #FACTORY} (the test's web.xml), as a JMS application does, in the
 * bean's container transaction.
 */
@Stateless
public class JmsBrowsing {

    static final String FACTORY = "java:app/jms/browsing";
    static final String QUEUE = "browse_q";

    // Looked up, not injected: see WakeSender.
    private static ConnectionFactory factory() throws NamingException {
        return InitialContext.doLookup(FACTORY);
    }

    /**
     * Sends {@code n} text messages {@code "<region> <i>"}, with the properties {@code region}
     * ({@code eu} for every third) and {@code quantity} (i, an int), and the JMS priorities 4 to 6 in turn.
     */
    public void send(int n) throws NamingException {
        try (JMSContext context = factory().createContext()) {
            for (int i = 0; i < n; i++) {
                String region = i % 3 == 0 ? "eu" : "us";
                JMSProducer producer = context.createProducer().setPriority(4 + i % 3).setProperty("region", region)
                        .setProperty("quantity", i);
                producer.send(context.createQueue(QUEUE), region + " " + i);
            }
        }
    }

    /** What a QueueBrowser with {@code selector} shows: each message as its row id and body, in its order. */
    public List<String> browse(String selector) throws NamingException, JMSException {
        try (JMSContext context = factory().createContext()) {
            QueueBrowser browser = context.createBrowser(context.createQueue(QUEUE), selector);
            List<String> shown = new ArrayList<>();
            for (Enumeration<?> e = browser.getEnumeration(); e.hasMoreElements(); ) {
                Message m = (Message) e.nextElement();
                shown.add(m.getJMSMessageID().substring(m.getJMSMessageID().lastIndexOf(':') + 1) + " "
                        + m.getBody(String.class));
            }
            browser.close();
            return shown;
        }
    }
}
