package io.sqlqueue.it.versus;

import jakarta.annotation.Resource;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import javax.sql.DataSource;

/**
 * The JMS side: a message-driven bean on the server's own broker, one persistent message per
 * container transaction. Its destination and concurrency, and which JDBC resource {@code
 * jdbc/work} is (XA or not), come from each deployment's descriptors ({@link ConsumerArchive}).
 */
@MessageDriven
public class JmsWork implements MessageListener {

    @Resource(name = "jdbc/work")
    private DataSource work;

    @Override
    public void onMessage(Message message) {
        try {
            Work.record(work, message.getBody(String.class));
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
