package io.sqlqueue.outbound.jms;

import io.sqlqueue.engine.JmsHeaders;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;

/** A {@link TextMessage} the JMS sender made: its text is sent as UTF-8 (null as empty text). */
final class OutgoingTextMessage extends OutgoingJmsMessage implements TextMessage {

    private String text;

    OutgoingTextMessage(String text) {
        this.text = text;
    }

    @Override
    public void setText(String text) {
        this.text = text;
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    public void clearBody() {
        text = null;
    }

    @Override
    Object body() {
        return text;
    }

    @Override
    byte[] bodyBytes() {
        return text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    String bodyType() {
        return JmsHeaders.TEXT;
    }
}
