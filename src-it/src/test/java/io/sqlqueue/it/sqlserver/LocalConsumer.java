package io.sqlqueue.it.sqlserver;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.ejb.MessageDriven;

/**
 * Consumes {@link SqlServerIT#QUEUE} through the adapter's own connection (jdbcUrl, useXA=false:
 * one-phase local transactions), with the completion journal on; its activation config is in the
 * test's ejb-jar.xml, which carries the run's URL. Throws on a message whose text is "poison".
 */
@MessageDriven
public class LocalConsumer implements QueueListener {

    @Override
    public void onMessage(QueueMessage message) {
        if (message.text().equals("poison")) {
            throw new IllegalStateException("poison refused on attempt " + message.attempt());
        }
    }
}
