package io.sqlqueue.inbound;

import io.sqlqueue.Tracing;
import io.sqlqueue.api.QueueMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.Work;
import java.sql.SQLException;
import java.util.List;
import java.util.logging.Level;

/**
 * One delivery thread: takes an endpoint and delivers message after message (one
 * {@code beforeDelivery}/{@code afterDelivery} pair each, all on this thread) until the queue is
 * empty or the activation stops, each in the activation's {@link DeliverySequence}.
 */
final class Delivery implements Work {

    private final QueueActivation activation;
    private final DeliveryConnections connections;
    private final MessageEndpointFactory factory;
    private final HeldMessages held;
    private final ConsumerMonitor monitor;
    private final ActivationSettings settings;
    /** The activation's queue events when the poller's peek saw the messages ready that this delivery was started for. */
    private final long eventsAtPeek;
    /** Whether the first take has yet to tell the poller what it found. */
    private boolean firstTake = true;
    /** Set by {@link #release()}: this delivery ends after its current message. */
    private volatile boolean released;

    Delivery(QueueActivation activation, long eventsAtPeek) {
        this.activation = activation;
        this.connections = activation.connections;
        this.factory = activation.factory;
        this.held = activation.held;
        this.monitor = activation.monitor;
        this.settings = activation.settings;
        this.eventsAtPeek = eventsAtPeek;
    }

    @Override
    public void run() {
        try (DeliveryConnections.Channel channel = connections.channel()) {
            MessageEndpoint endpoint;
            try {
                endpoint = factory.createEndpoint(channel.xaResource());
            } catch (UnavailableException e) {
                activation.backOff(settings.pollInterval()); // the MDB pool is full: claim nothing
                return;
            }
            DeliverySequence sequence = DeliverySequence.of(activation, this);
            try {
                while (!halted() && sequence.deliverNext(endpoint, channel) && goesOn()) {
                    // next message
                }
            } finally {
                sequence.end();
                endpoint.release();
            }
        } catch (SQLException | ResourceException | NoSuchMethodException | RuntimeException e) {
            monitor.failed(describe(e));
            QueueActivation.log(Level.WARNING, "delivery from " + settings.queue() + " stopped: "
                    + e.getMessage(), e);
        } finally {
            if (firstTake) { // no take ran to the end: it tells nothing about the ready messages
                firstTake = false;
                held.firstTakeEnded(false, eventsAtPeek);
            }
            activation.deliveryFinished();
        }
    }

    /**
     * A take has found messages (or rows for the dead-letter table), or nothing: the poller learns
     * it at once, so that it backs off when the ready messages it saw were held by others, and goes
     * back to full speed as soon as a take finds something.
     */
    void took(boolean found) {
        if (found) {
            held.queueChanged();
        }
        if (firstTake) {
            firstTake = false;
            held.firstTakeEnded(!found, eventsAtPeek);
        }
    }

    /**
     * Whether this thread delivers another message after the current one: not while the circuit
     * breaker is open, when the poller starts each delivery on a thread of its own after a pause.
     */
    boolean goesOn() {
        return !halted() && !activation.breaker.isOpen();
    }

    /** Released, or the activation stopping or paused: this thread starts no delivery. */
    private boolean halted() {
        return released || activation.stopping() || activation.paused();
    }

    /**
     * Calls the bean's listener method with one message, or a batch, timed in the consumer bean and,
     * with OpenTelemetry, in a consumer span linked to the senders' spans ({@link Tracing}).
     */
    static void deliver(QueueActivation activation, MessageEndpoint endpoint, List<QueueMessage> messages) {
        long started = activation.monitor.delivering(messages);
        Tracing.ConsumerSpan span = Tracing.startConsumerSpan(activation.settings.queue(), messages);
        try {
            activation.listener.deliver(endpoint, messages);
        } catch (Throwable e) { // whatever the bean threw, rethrown as it is
            span.failed(e, describe(e));
            throw e;
        } finally {
            span.end();
            activation.monitor.processed(messages.size(), started);
        }
    }

    /** The innermost exception with a message: containers wrap the bean's own in EJBException. */
    static String describe(Throwable t) {
        Throwable best = ExceptionPolicy.mostTelling(t);
        return best.getClass().getName() + (best.getMessage() == null ? "" : ": " + best.getMessage());
    }

    /**
     * Ends this delivery after its current message, and nothing more: WildFly's work manager calls
     * it after every Work that has returned, so stopping the activation here stopped all delivery.
     */
    @Override
    public void release() {
        released = true;
    }
}
