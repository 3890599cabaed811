package io.sqlqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.JournalEntry;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Tracing}: the headers a send carries, what a delivery reads back, and nothing without OpenTelemetry. */
class TracingTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN_ID = "00f067aa0ba902b7";

    private static SpanContext sender(TraceState state) {
        return SpanContext.create(TRACE_ID, SPAN_ID, TraceFlags.getSampled(), state);
    }

    private static OutgoingMessage full() {
        return OutgoingMessage.text("order").header("type", "created").delay(Duration.ofSeconds(5)).priority(7)
                .dedupKey("order-1").timeToLive(Duration.ofMinutes(1)).orderingKey("customer-1").build();
    }

    @Test
    void aSendInsideASpanCarriesItsContextAndKeepsEverythingElse() {
        OutgoingMessage traced;
        try (Scope s = Span.wrap(sender(TraceState.builder().put("vendor", "x1").build())).makeCurrent()) {
            traced = Tracing.withCurrentContext(full());
        }
        assertEquals("00-" + TRACE_ID + "-" + SPAN_ID + "-01", traced.headers().get(Tracing.TRACEPARENT));
        assertEquals("vendor=x1", traced.headers().get(Tracing.TRACESTATE));
        assertEquals("created", traced.headers().get("type"));
        OutgoingMessage expected = OutgoingMessage.text("order").headers(traced.headers()).delay(Duration.ofSeconds(5))
                .priority(7).dedupKey("order-1").timeToLive(Duration.ofMinutes(1)).orderingKey("customer-1").build();
        assertEquals(expected, traced, "only headers added");
        assertEquals(TRACE_ID, JournalEntry.traceIdOf(traced.headers()));
    }

    @Test
    void theContextReadBackIsTheSendersAsARemoteOne() {
        Map<String, String> headers;
        try (Scope s = Span.wrap(sender(TraceState.builder().put("vendor", "x1").build())).makeCurrent()) {
            headers = OpenTelemetryTracing.currentContextHeaders();
        }
        SpanContext read = OpenTelemetryTracing.senderContext(headers);
        assertTrue(read.isValid() && read.isRemote());
        assertEquals(TRACE_ID, read.getTraceId());
        assertEquals(SPAN_ID, read.getSpanId());
        assertTrue(read.isSampled());
        assertEquals("x1", read.getTraceState().get("vendor"));
    }

    @Test
    void anEmptyTraceStateAddsNoHeader() {
        try (Scope s = Span.wrap(sender(TraceState.getDefault())).makeCurrent()) {
            assertEquals(Map.of(Tracing.TRACEPARENT, "00-" + TRACE_ID + "-" + SPAN_ID + "-01"),
                    Tracing.withCurrentContext(OutgoingMessage.text("x").build()).headers());
        }
    }

    @Test
    void withoutAValidCurrentSpanTheMessagesAreSentAsTheyAre() {
        List<OutgoingMessage> messages = List.of(full(), OutgoingMessage.text("b").build());
        assertSame(messages, Tracing.withCurrentContext(messages), "no span at all");
        try (Scope s = Span.wrap(SpanContext.getInvalid()).makeCurrent()) {
            assertSame(messages, Tracing.withCurrentContext(messages), "an invalid span");
        }
        assertTrue(OpenTelemetryTracing.senderContext(Map.of()).getTraceId().chars().allMatch(c -> c == '0'));
        assertFalse(OpenTelemetryTracing.senderContext(Map.of(Tracing.TRACEPARENT, "garbage")).isValid());
    }

    @Test
    void aTraceparentTheApplicationSetIsKept() {
        OutgoingMessage own = OutgoingMessage.text("x").header(Tracing.TRACEPARENT, "00-" + "1".repeat(32) + "-"
                + "2".repeat(16) + "-00").build();
        try (Scope s = Span.wrap(sender(TraceState.builder().put("vendor", "x1").build())).makeCurrent()) {
            assertSame(own, Tracing.withCurrentContext(own));
        }
    }

    @Test
    void everyMessageOfABatchGetsTheContextOfTheCall() {
        List<OutgoingMessage> sent;
        try (Scope s = Span.wrap(sender(TraceState.getDefault())).makeCurrent()) {
            sent = Tracing.withCurrentContext(List.of(OutgoingMessage.text("a").build(), OutgoingMessage.text("b").build()));
        }
        assertEquals(2, sent.size());
        sent.forEach(m -> assertEquals("00-" + TRACE_ID + "-" + SPAN_ID + "-01", m.headers().get(Tracing.TRACEPARENT)));
    }

    @Test
    void theJournalReadsOnlyAValidTraceparent() {
        assertNull(JournalEntry.traceIdOf(Map.of()));
        assertNull(JournalEntry.traceIdOf(Map.of(Tracing.TRACEPARENT, "garbage")));
        assertNull(JournalEntry.traceIdOf(Map.of(Tracing.TRACEPARENT, "00-" + "0".repeat(32) + "-" + SPAN_ID + "-01")),
                "the all-zero trace id is invalid");
        assertNull(JournalEntry.traceIdOf(Map.of(Tracing.TRACEPARENT, "00-" + TRACE_ID.toUpperCase() + "-" + SPAN_ID
                + "-01")), "upper case is invalid");
        assertEquals(TRACE_ID, JournalEntry.traceIdOf(Map.of(Tracing.TRACEPARENT, "00-" + TRACE_ID + "-" + SPAN_ID
                + "-00")));
    }

    @Test
    void aFailedDeliveryIsAnErrorSpanWithTheException() {
        try (InMemorySpans spans = InMemorySpans.installGlobal()) {
            QueueMessage m = new QueueMessage(42, "orders", new byte[0], Map.of(), Instant.now(), 3);
            Tracing.ConsumerSpan span = Tracing.startConsumerSpan("orders", List.of(m));
            String inside = Span.current().getSpanContext().getSpanId();
            span.failed(new IllegalStateException("down"), "java.lang.IllegalStateException: down");
            span.end();
            assertFalse(Span.current().getSpanContext().isValid(), "its scope is closed");
            SpanData d = spans.finished().get(0);
            assertEquals(inside, d.getSpanId(), "current while the bean ran");
            assertEquals(StatusCode.ERROR, d.getStatus().getStatusCode());
            assertEquals("java.lang.IllegalStateException: down", d.getStatus().getDescription());
            assertEquals("exception", d.getEvents().get(0).getName());
            assertEquals(List.of(), d.getLinks(), "a message sent outside a span has no link");
            assertEquals(3L, d.getAttributes().get(OpenTelemetryTracing.ATTEMPT));
        }
    }

    /**
     * A delivery before any SDK is registered builds no span and leaves GlobalOpenTelemetry unset: the
     * server's own registration still works.
     */
    @Test
    void aDeliveryBeforeAnSdkIsRegisteredDoesNotRegisterTheNoOp() {
        GlobalOpenTelemetry.resetForTest();
        try {
            QueueMessage m = new QueueMessage(1, "orders", new byte[0], Map.of(), Instant.now(), 1);
            Tracing.ConsumerSpan span = Tracing.startConsumerSpan("orders", List.of(m));
            assertSame(Tracing.ConsumerSpan.NONE, span, "no span, scope nor link built for the no-op OpenTelemetry");
            span.end();
            assertFalse(GlobalOpenTelemetry.isSet());
            GlobalOpenTelemetry.set(OpenTelemetry.noop()); // registered in a wrapper, as get() does on Payara Micro
            assertSame(Tracing.ConsumerSpan.NONE, Tracing.startConsumerSpan("orders", List.of(m)),
                    "none for the registered no-op either");
        } finally {
            GlobalOpenTelemetry.resetForTest();
        }
    }

    /**
     * The adapter's classes in a class loader that cannot see OpenTelemetry: sending and delivering
     * work as without tracing, and the class that uses OpenTelemetry is never loaded.
     */
    @Test
    void withoutOpenTelemetryNothingChangesAndItsClassesAreNeverLoaded() throws Exception {
        URL adapter = Tracing.class.getProtectionDomain().getCodeSource().getLocation();
        URL api = OutgoingMessage.class.getProtectionDomain().getCodeSource().getLocation();
        try (Isolated loader = new Isolated(new URL[] {adapter, api})) {
            assertFalse(Tracing.available(loader), "the loader sees no OpenTelemetry");
            Class<?> tracing = loader.loadClass(Tracing.class.getName());
            assertEquals(false, tracing.getMethod("enabled").invoke(null));
            Class<?> outgoing = loader.loadClass(OutgoingMessage.class.getName());
            Object builder = outgoing.getMethod("text", String.class).invoke(null, "x");
            Object message = builder.getClass().getMethod("build").invoke(builder);
            List<Object> messages = List.of(message);
            assertSame(messages, tracing.getMethod("withCurrentContext", List.class).invoke(null, messages));
            Class<?> queueMessage = loader.loadClass(QueueMessage.class.getName());
            Object delivered = queueMessage.getConstructor(long.class, String.class, byte[].class, Map.class,
                    Instant.class, int.class).newInstance(1L, "orders", new byte[0], Map.of(), Instant.now(), 1);
            Object span = tracing.getMethod("startConsumerSpan", String.class, List.class)
                    .invoke(null, "orders", List.of(delivered));
            Method end = loader.loadClass(Tracing.ConsumerSpan.class.getName()).getMethod("end");
            end.invoke(span);
            assertNull(loader.loaded(OpenTelemetryTracing.class.getName()), "never loaded");
        }
    }

    /** A class loader with no parent but the platform's (no OpenTelemetry), telling what it has loaded. */
    private static final class Isolated extends URLClassLoader {
        Isolated(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        Class<?> loaded(String name) {
            return findLoadedClass(name);
        }
    }
}
