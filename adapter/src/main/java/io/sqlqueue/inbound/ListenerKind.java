package io.sqlqueue.inbound;

import io.sqlqueue.api.BatchQueueListener;
import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.jms.ReceivedMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.lang.reflect.Method;
import java.util.List;

/**
 * The message listener interface a bean implements, decided once at activation from its endpoint
 * class: the one place that knows the listener types, their method, and how a delivery calls it.
 */
enum ListenerKind {

    /** {@link QueueListener#onMessage}: one message per call. */
    QUEUE(method(QueueListener.class, "onMessage", QueueMessage.class)) {
        @Override
        void deliver(MessageEndpoint endpoint, List<QueueMessage> messages) {
            ((QueueListener) endpoint).onMessage(messages.get(0));
        }
    },
    /** {@link BatchQueueListener#onMessages}: up to batchSize messages per call. */
    BATCH(method(BatchQueueListener.class, "onMessages", List.class)) {
        @Override
        void deliver(MessageEndpoint endpoint, List<QueueMessage> messages) {
            ((BatchQueueListener) endpoint).onMessages(messages);
        }
    },
    /** Jakarta Messaging's {@link MessageListener#onMessage}: one message per call, as a read-only JMS message. */
    JMS(method(MessageListener.class, "onMessage", Message.class)) {
        @Override
        void deliver(MessageEndpoint endpoint, List<QueueMessage> messages) {
            ((MessageListener) endpoint).onMessage(ReceivedMessage.of(messages.get(0)));
        }
    };

    /** The listener method, for beforeDelivery and isDeliveryTransacted. */
    final Method method;

    ListenerKind(Method method) {
        this.method = method;
    }

    /**
     * The kind of {@code bean} (the endpoint class; null: a QueueListener). A bean implementing
     * QueueListener is one, whatever else it implements, as before JMS beans existed; then a JMS
     * MessageListener; then a batch bean.
     */
    static ListenerKind of(Class<?> bean) {
        if (bean == null || QueueListener.class.isAssignableFrom(bean)) {
            return QUEUE;
        }
        if (MessageListener.class.isAssignableFrom(bean)) {
            return JMS;
        }
        return BatchQueueListener.class.isAssignableFrom(bean) ? BATCH : QUEUE;
    }

    /** Whether a call takes a batch of messages. */
    boolean batch() {
        return this == BATCH;
    }

    /** Calls the bean's listener method; whatever it throws comes out as it is. */
    abstract void deliver(MessageEndpoint endpoint, List<QueueMessage> messages);

    private static Method method(Class<?> listener, String name, Class<?> parameter) {
        try {
            return listener.getMethod(name, parameter);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
