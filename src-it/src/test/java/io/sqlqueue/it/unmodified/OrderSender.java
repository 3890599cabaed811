package io.sqlqueue.it.unmodified;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import java.util.List;

/** A sender as JMS applications write one: the injected JMSContext, in the bean's transaction. */
@Stateless
public class OrderSender {

    @Inject
    @JMSConnectionFactory(UnmodifiedApp.FACTORY)
    private JMSContext context;

    @Resource(lookup = UnmodifiedApp.QUEUE)
    private Queue orders;

    /** Sends the texts in one transaction: all or none. */
    public void send(List<String> texts) {
        for (String text : texts) {
            context.createProducer().send(orders, text);
        }
    }
}
