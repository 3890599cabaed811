package io.sqlqueue.outbound.jms;

import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;

/**
 * The errors of the JMS sender: what it does not offer, named with what to do instead, and the
 * simplified API's runtime form of a classic exception. The texts of the refusals are here, so the
 * classic and the simplified API say the same.
 */
final class Refusals {

    /** The error code of every refusal of an operation the adapter does not offer. */
    static final String UNSUPPORTED = "SQLQUEUE_UNSUPPORTED";

    static final String RECEIVE = "this adapter delivers to message-driven beans only: consume the queue (or a topic"
            + " subscription's queue) with a MessageListener or QueueListener bean";
    static final String BROWSE = "this session's connection is not one of the adapter's queue connections, which"
            + " browse the queue table";
    static final String TEMPORARY = "temporary destinations are not offered: name a queue table of its own (an"
            + " activation with createQueue=true makes it)";
    static final String SUBSCRIPTION = "durable subscriptions are rows of sqlqueue_subscriptions, made by the"
            + " subscriber's activation (topic, subscriptionName) and removed by removeSubscription() on its queue's"
            + " management bean";
    static final String OTHER_BODIES = "send a TextMessage (JSON or XML text, say) or a BytesMessage";
    static final String ASYNC = "send synchronously: Jakarta EE forbids asynchronous sends in beans and web components,"
            + " and a send here is an insert in the caller's transaction";
    static final String CLIENT_ID = "a client identifier means nothing here: a subscription is named by its topic and"
            + " subscriptionName";
    static final String LISTENER = "a connection here reports no failures asynchronously: each send throws its own";
    static final String CREDENTIALS = "the database user is the connection factory's (its user and password"
            + " properties, or the pool's container-managed sign-on): call the method without them";
    static final String REPLY_TO = "put the reply queue's name in a property, which the receiver reads";
    static final String CORRELATION_BYTES = "use setJMSCorrelationID with a String";

    private Refusals() {
    }

    /** {@code operation} is not offered: a JMSException naming it and what to do instead. */
    static JMSException unsupported(String operation, String instead) {
        return new JMSException(text(operation, instead), UNSUPPORTED);
    }

    /** As {@link #unsupported}, for the simplified API. */
    static JMSRuntimeException unsupportedRuntime(String operation, String instead) {
        return new JMSRuntimeException(text(operation, instead), UNSUPPORTED);
    }

    private static String text(String operation, String instead) {
        return operation + " is not supported by the SQL queue adapter: " + instead;
    }

    /** The simplified API's exception for a classic one: the runtime subclass of the same meaning. */
    static JMSRuntimeException runtime(JMSException e) {
        JMSRuntimeException r;
        if (e instanceof MessageFormatException) {
            r = new MessageFormatRuntimeException(e.getMessage(), e.getErrorCode(), e);
        } else if (e instanceof InvalidDestinationException) {
            r = new InvalidDestinationRuntimeException(e.getMessage(), e.getErrorCode(), e);
        } else if (e instanceof TransactionInProgressException) {
            r = new TransactionInProgressRuntimeException(e.getMessage(), e.getErrorCode(), e);
        } else if (e instanceof InvalidSelectorException) {
            r = new InvalidSelectorRuntimeException(e.getMessage(), e.getErrorCode(), e);
        } else if (e instanceof IllegalStateException) {
            r = new IllegalStateRuntimeException(e.getMessage(), e.getErrorCode(), e);
        } else {
            r = new JMSRuntimeException(e.getMessage(), e.getErrorCode(), e);
        }
        return r;
    }

    /** A classic call of the simplified API: its JMSException as the runtime one. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws JMSException;
    }

    static <T> T unchecked(Call<T> call) {
        try {
            return call.run();
        } catch (JMSException e) {
            throw runtime(e);
        }
    }
}
