package io.sqlqueue.jms;

import io.sqlqueue.api.QueueMessage;
import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;

/** A received {@link TextMessage}: the body decoded as UTF-8 (see {@link ReceivedMessage}). */
final class ReceivedTextMessage extends ReceivedMessage implements TextMessage {

    private final String text;

    ReceivedTextMessage(QueueMessage message) {
        super(message);
        this.text = message.text();
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    public void setText(String string) throws JMSException {
        throw notWriteable("setText");
    }

    @Override
    Object body() {
        return text;
    }
}
