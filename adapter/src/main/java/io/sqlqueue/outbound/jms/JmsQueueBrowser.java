package io.sqlqueue.outbound.jms;

import io.sqlqueue.api.QueueException;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.Browse;
import io.sqlqueue.engine.MessageSelector;
import io.sqlqueue.jms.ReceivedMessage;
import io.sqlqueue.outbound.QueueBrowsing;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Enumeration;
import java.util.NoSuchElementException;

/**
 * A peek at a queue: each {@link #getEnumeration()} walks the messages a consumer could take now,
 * in the order the queue delivers them, as the same read-only TextMessage or BytesMessage a
 * {@code MessageListener} bean receives ({@link ReceivedMessage}), those the selector selects.
 * What it shows, how it pages and what it does not lock: {@link Browse}. It reads on its session's
 * connection, in the caller's transaction if there is one, and changes nothing: a message shown is
 * still delivered to a consumer. The selector is checked when the browser is made
 * ({@link InvalidSelectorException} naming the bad token and its position).
 *
 * <p>An enumeration reads a page when the one before is used up; a database failure then, or
 * using it once the browser or its session is closed, throws a {@link JMSRuntimeException}
 * ({@link IllegalStateRuntimeException} for closed), since {@link Enumeration} throws nothing checked.
 */
final class JmsQueueBrowser implements QueueBrowser {

    private final JmsSession session;
    private final QueueBrowsing queues;
    private final Queue queue;
    private final String selectorText;
    private final MessageSelector selector;
    private volatile boolean closed;

    private JmsQueueBrowser(JmsSession session, QueueBrowsing queues, Queue queue, String selectorText,
            MessageSelector selector) {
        this.session = session;
        this.queues = queues;
        this.queue = queue;
        this.selectorText = selectorText;
        this.selector = selector;
    }

    /**
     * A browser of {@code queue} filtered by {@code selectorText} (null or blank: none).
     *
     * @throws InvalidDestinationException for a null queue or a bad queue name
     * @throws InvalidSelectorException    for a selector that does not parse
     */
    static JmsQueueBrowser of(JmsSession session, QueueBrowsing queues, Queue queue, String selectorText)
            throws JMSException {
        if (queue == null) {
            throw new InvalidDestinationException("createBrowser: the queue must not be null");
        }
        String name = queue.getQueueName();
        MessageSelector selector;
        try {
            selector = selectorText == null || selectorText.isBlank() ? null : MessageSelector.parse(selectorText);
        } catch (IllegalArgumentException e) {
            throw new InvalidSelectorException("createBrowser: the message selector is not valid: " + e.getMessage());
        }
        try {
            io.sqlqueue.engine.TableName.parse(name);
        } catch (IllegalArgumentException e) {
            throw new InvalidDestinationException("createBrowser: " + e.getMessage());
        }
        return new JmsQueueBrowser(session, queues, queue, selectorText, selector);
    }

    private void open(String operation) throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException(operation + ": the queue browser is closed");
        }
        session.open(operation);
    }

    @Override
    public Queue getQueue() throws JMSException {
        open("getQueue");
        return queue;
    }

    /** The selector as given, null when there is none. */
    @Override
    public String getMessageSelector() throws JMSException {
        open("getMessageSelector");
        return selectorText;
    }

    /** A new walk from the head of the queue; nothing is read until it is asked for its first element. */
    @Override
    public Enumeration<?> getEnumeration() throws JMSException {
        open("getEnumeration");
        Browse browse;
        try {
            browse = queues.browse(queue.getQueueName(), selector);
        } catch (QueueException e) {
            throw failed(e);
        }
        return new Pages(browse);
    }

    /** Closes the browser: its enumerations end with an IllegalStateRuntimeException. Closing twice does nothing. */
    @Override
    public void close() {
        closed = true;
    }

    private static JMSException failed(QueueException e) {
        JMSException failed = new JMSException(e.getMessage());
        failed.setLinkedException(e);
        failed.initCause(e);
        return failed;
    }

    /** The messages of one walk, a page read whenever the one before is used up. */
    private final class Pages implements Enumeration<Message> {

        private final Browse browse;
        private final Deque<QueueMessage> page = new ArrayDeque<>();
        private boolean ended;

        Pages(Browse browse) {
            this.browse = browse;
        }

        @Override
        public boolean hasMoreElements() {
            try {
                open("QueueBrowser enumeration"); // even with a page in hand: closed means closed
            } catch (IllegalStateException e) {
                throw new IllegalStateRuntimeException(e.getMessage(), e.getErrorCode(), e);
            }
            if (page.isEmpty() && !ended) {
                try {
                    page.addAll(queues.next(browse));
                } catch (QueueException e) {
                    throw Refusals.runtime(failed(e));
                }
                ended = page.isEmpty();
            }
            return !page.isEmpty();
        }

        @Override
        public Message nextElement() {
            if (!hasMoreElements()) {
                throw new NoSuchElementException("the queue browser has shown every message of its walk");
            }
            return ReceivedMessage.of(page.poll());
        }
    }
}
