package io.sqlqueue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.JournalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * W3C trace context propagation through the queue, when the server has the OpenTelemetry API:
 * a send stores the sender's current span context in the message's {@value #TRACEPARENT} and
 * {@value #TRACESTATE} headers, and a delivery runs the bean in a consumer span linked to it.
 *
 * <p>Optional: this class names no OpenTelemetry type. Whether the API is visible to the
 * adapter's class loader is checked once; only then is {@link OpenTelemetryTracing} (the one class
 * that uses it) ever loaded. Without it every method returns its argument, or a span that does
 * nothing, so a server without OpenTelemetry runs the adapter as before, with no
 * {@link NoClassDefFoundError}.
 *
 * <p>Thread-safe; a {@link ConsumerSpan} belongs to the thread that started it.
 */
public final class Tracing {

    /** The header holding the sender's W3C {@code traceparent}, set by the adapter when absent. */
    public static final String TRACEPARENT = JournalEntry.TRACEPARENT;
    /** The header holding the sender's W3C {@code tracestate}, when it has one. */
    public static final String TRACESTATE = "tracestate";

    /** The class whose presence means the OpenTelemetry API can be used. */
    static final String PROBE_CLASS = "io.opentelemetry.api.trace.Span";

    private static final boolean ENABLED = available(Tracing.class.getClassLoader());

    private Tracing() {
    }

    /** Whether the OpenTelemetry API can be loaded from {@code loader}; nothing is initialised. */
    static boolean available(ClassLoader loader) {
        try {
            Class.forName(PROBE_CLASS, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether this adapter propagates trace context (the OpenTelemetry API is present). */
    public static boolean enabled() {
        return ENABLED;
    }

    /**
     * The messages to send, each with the calling thread's current trace context in its headers:
     * the same list when there is no OpenTelemetry or no valid current span. A message whose
     * application already set {@value #TRACEPARENT} is left as it is; no header the application
     * set is ever replaced. All messages get the context current at this call.
     */
    public static List<OutgoingMessage> withCurrentContext(List<OutgoingMessage> messages) {
        if (!ENABLED) {
            return messages;
        }
        Map<String, String> context = OpenTelemetryTracing.currentContextHeaders();
        if (context.isEmpty()) {
            return messages;
        }
        List<OutgoingMessage> traced = new ArrayList<>(messages.size());
        for (OutgoingMessage m : messages) {
            traced.add(withHeaders(m, context));
        }
        return traced;
    }

    /** As {@link #withCurrentContext(List)} for one message. */
    public static OutgoingMessage withCurrentContext(OutgoingMessage message) {
        return withCurrentContext(List.of(message)).get(0);
    }

    private static OutgoingMessage withHeaders(OutgoingMessage m, Map<String, String> context) {
        if (m.headers().containsKey(TRACEPARENT)) {
            return m; // the application propagates its own context
        }
        OutgoingMessage.Builder b = OutgoingMessage.bytes(m.body()).headers(m.headers()).delay(m.delay())
                .priority(m.priority());
        context.forEach((name, value) -> {
            if (!m.headers().containsKey(name)) {
                b.header(name, value);
            }
        });
        if (m.dedupKey() != null) {
            b.dedupKey(m.dedupKey());
        }
        if (m.timeToLive() != null) {
            b.timeToLive(m.timeToLive());
        }
        if (m.orderingKey() != null) {
            b.orderingKey(m.orderingKey());
        }
        return b.build();
    }

    /**
     * Starts the consumer span of one delivery of {@code messages} from {@code queue} (one span for
     * a batch, with a link per message that carries a sender's context) and makes it current on
     * this thread, so the bean's own spans are its children. A span that does nothing without
     * OpenTelemetry. End it with {@link ConsumerSpan#end()} on this thread, after the bean returned.
     */
    public static ConsumerSpan startConsumerSpan(String queue, List<QueueMessage> messages) {
        return ENABLED ? OpenTelemetryTracing.startConsumerSpan(queue, messages) : ConsumerSpan.NONE;
    }

    /** The span around one call of the bean's listener method. */
    public interface ConsumerSpan {

        /** Does nothing: no OpenTelemetry. */
        ConsumerSpan NONE = new ConsumerSpan() {
            @Override
            public void failed(Throwable t, String description) {
            }

            @Override
            public void end() {
            }
        };

        /** The listener method threw {@code t}: recorded on the span, whose status becomes ERROR. */
        void failed(Throwable t, String description);

        /** Leaves the span's scope and ends it; call once, on the thread that started it. */
        void end();
    }
}
