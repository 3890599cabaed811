package io.sqlqueue;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.sqlqueue.api.QueueMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one class that uses the OpenTelemetry API, loaded only by {@link Tracing} after it found the
 * API. The headers are always W3C Trace Context ({@link W3CTraceContextPropagator}), whatever
 * propagators the server configured: they are part of the message's format, read by any consumer.
 * Spans come from {@link GlobalOpenTelemetry}, looked up at each delivery (a no-op tracer until
 * the server registers an SDK there; the adapter never registers anything itself).
 *
 * <p>Attributes follow the OpenTelemetry messaging semantic conventions: {@code messaging.system}
 * is {@value #SYSTEM} (the queue, whatever the database holding it).
 */
final class OpenTelemetryTracing {

    static final String INSTRUMENTATION_SCOPE = "io.sqlqueue";
    static final String SYSTEM = "sqlqueue";
    static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<Long> BATCH_COUNT = AttributeKey.longKey("messaging.batch.message_count");
    /** Which delivery of the message this is (1 for the first): not in the conventions, so namespaced. */
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("messaging.sqlqueue.attempt");

    private static final TextMapSetter<Map<String, String>> SETTER = (headers, name, value) -> {
        if (headers != null) {
            headers.put(name, value);
        }
    };

    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> headers) {
            return headers.keySet();
        }

        @Override
        public String get(Map<String, String> headers, String name) {
            return headers == null ? null : headers.get(name);
        }
    };

    private OpenTelemetryTracing() {
    }

    /** {@code traceparent} and {@code tracestate} of the current span; empty when it is not valid. */
    static Map<String, String> currentContextHeaders() {
        Map<String, String> headers = new LinkedHashMap<>();
        if (Span.current().getSpanContext().isValid()) {
            W3CTraceContextPropagator.getInstance().inject(Context.current(), headers, SETTER);
        }
        return headers;
    }

    /** The sender's span context in {@code headers}: invalid when there is none, or none readable. */
    static SpanContext senderContext(Map<String, String> headers) {
        Context extracted = W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, GETTER);
        return Span.fromContext(extracted).getSpanContext();
    }

    /**
     * Whether the API has {@code GlobalOpenTelemetry.getOrNoop()} (1.5x and later), checked once; the
     * call itself links only when made, so an older API never sees it.
     */
    private static final boolean HAS_GET_OR_NOOP = hasGetOrNoop();

    private static boolean hasGetOrNoop() {
        try {
            GlobalOpenTelemetry.class.getMethod("getOrNoop");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * The registered OpenTelemetry, or a no-op one. Not {@code GlobalOpenTelemetry.get()} where
     * avoidable: called before anything registered, it registers the no-op itself, and a server or
     * application registering its SDK afterwards would fail.
     */
    private static OpenTelemetry global() {
        return HAS_GET_OR_NOOP ? GlobalOpenTelemetry.getOrNoop() : GlobalOpenTelemetry.get();
    }

    /**
     * The consumer span of a delivery; none while no SDK is registered (the no-op tracer provider, also
     * inside the wrapper {@code GlobalOpenTelemetry.get()} registers, as on Payara Micro), whose spans,
     * links and scope record nothing yet cost about 3% of a delivery's CPU there (JFR).
     */
    static Tracing.ConsumerSpan startConsumerSpan(String queue, List<QueueMessage> messages) {
        OpenTelemetry openTelemetry = global();
        if (openTelemetry.getTracerProvider() == TracerProvider.noop()) {
            return Tracing.ConsumerSpan.NONE;
        }
        SpanBuilder builder = openTelemetry.getTracer(INSTRUMENTATION_SCOPE)
                .spanBuilder("process " + queue)
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(MESSAGING_SYSTEM, SYSTEM)
                .setAttribute(DESTINATION, queue)
                .setAttribute(OPERATION_TYPE, "process")
                .setAttribute(OPERATION_NAME, "process");
        if (messages.size() == 1) {
            builder.setAttribute(MESSAGE_ID, Long.toString(messages.get(0).id()))
                    .setAttribute(ATTEMPT, (long) messages.get(0).attempt());
        } else {
            builder.setAttribute(BATCH_COUNT, (long) messages.size());
        }
        for (QueueMessage m : messages) {
            SpanContext sender = senderContext(m.headers());
            if (sender.isValid()) {
                AttributesBuilder link = Attributes.builder().put(MESSAGE_ID, Long.toString(m.id()))
                        .put(ATTEMPT, (long) m.attempt());
                builder.addLink(sender, link.build());
            }
        }
        Span span = builder.startSpan();
        Scope scope = span.makeCurrent();
        return new Tracing.ConsumerSpan() {
            @Override
            public void failed(Throwable t, String description) {
                span.recordException(t);
                span.setStatus(StatusCode.ERROR, description);
            }

            @Override
            public void end() {
                scope.close();
                span.end();
            }
        };
    }
}
