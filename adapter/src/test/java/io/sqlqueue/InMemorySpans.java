package io.sqlqueue;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OpenTelemetry SDK registered as the global one for a test, exporting every span as it ends
 * into memory (sdk-testing's exporter is not available offline). Close it to unregister it.
 */
public final class InMemorySpans implements SpanExporter, AutoCloseable {

    private final List<SpanData> finished = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider provider;

    private InMemorySpans() {
        provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(this)).build();
    }

    /** A fresh SDK as {@link GlobalOpenTelemetry}, replacing whatever an earlier test left. */
    public static InMemorySpans installGlobal() {
        InMemorySpans spans = new InMemorySpans();
        GlobalOpenTelemetry.resetForTest();
        GlobalOpenTelemetry.set(OpenTelemetrySdk.builder().setTracerProvider(spans.provider).build());
        return spans;
    }

    /** The spans ended so far, in the order they ended. */
    public List<SpanData> finished() {
        return List.copyOf(finished);
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        finished.addAll(spans);
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }

    /** Unregisters the SDK: later code sees no global OpenTelemetry again. */
    @Override
    public void close() {
        GlobalOpenTelemetry.resetForTest();
        provider.close();
    }
}
