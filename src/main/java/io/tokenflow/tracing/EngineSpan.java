package io.tokenflow.tracing;

import java.time.Instant;
import java.util.List;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;

/**
 * A finished span of a run, built after the fact from what the engine recorded (its ids from {@link TraceIds}), as
 * OpenTelemetry's exporters take it. Written by hand: the SDK builds {@link SpanData} only from spans it started itself,
 * with ids it chose.
 *
 * @param parentSpanId the parent's span id in the same trace, or null for the run's own span
 * @param error        the error's description when the span failed, else null
 */
public record EngineSpan(String name, String traceId, String spanId, String parentSpanId, Instant start, Instant end,
                         Attributes attributes, String error, Resource resource) implements SpanData {

    private static final InstrumentationScopeInfo SCOPE = InstrumentationScopeInfo.create("io.tokenflow.engine");

    @Override
    public String getName() {
        return name;
    }

    @Override
    public SpanKind getKind() {
        return SpanKind.INTERNAL;
    }

    @Override
    public SpanContext getSpanContext() {
        return SpanContext.create(traceId, spanId, TraceFlags.getSampled(), TraceState.getDefault());
    }

    @Override
    public SpanContext getParentSpanContext() {
        return parentSpanId == null ? SpanContext.getInvalid()
                : SpanContext.create(traceId, parentSpanId, TraceFlags.getSampled(), TraceState.getDefault());
    }

    @Override
    public StatusData getStatus() {
        return error == null ? StatusData.ok() : StatusData.create(io.opentelemetry.api.trace.StatusCode.ERROR, error);
    }

    @Override
    public long getStartEpochNanos() {
        return nanos(start);
    }

    @Override
    public Attributes getAttributes() {
        return attributes;
    }

    @Override
    public List<EventData> getEvents() {
        return List.of();
    }

    @Override
    public List<LinkData> getLinks() {
        return List.of();
    }

    @Override
    public long getEndEpochNanos() {
        return Math.max(nanos(end), nanos(start));
    }

    @Override
    public boolean hasEnded() {
        return true;
    }

    @Override
    public int getTotalRecordedEvents() {
        return 0;
    }

    @Override
    public int getTotalRecordedLinks() {
        return 0;
    }

    @Override
    public int getTotalAttributeCount() {
        return attributes.size();
    }

    @Override
    @SuppressWarnings("deprecation")
    public io.opentelemetry.sdk.common.InstrumentationLibraryInfo getInstrumentationLibraryInfo() {
        return io.opentelemetry.sdk.common.InstrumentationLibraryInfo.create(SCOPE.getName(), null);
    }

    @Override
    public InstrumentationScopeInfo getInstrumentationScopeInfo() {
        return SCOPE;
    }

    @Override
    public Resource getResource() {
        return resource;
    }

    private static long nanos(Instant at) {
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }
}
