package io.tokenflow.tracing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Sends the runs' spans over OTLP/HTTP (OpenTelemetry's exporter on the JDK's HTTP client) when
 * {@code tokenflow.tracing.otlp-endpoint} is set; otherwise {@link #enabled()} is false and the engine builds no span.
 * Spans offered one at a time (routing steps) are gathered and sent every {@value #FLUSH_MS} ms or per
 * {@value #BATCH} (OpenTelemetry's batch processor takes only spans its SDK started); at most {@value #QUEUED} wait,
 * more are dropped. An export that fails is logged once until one succeeds again; its spans are not sent again
 * (traces are a view, the event log is the record).
 */
@Component
public class RunSpans implements DisposableBean {

    public static final AttributeKey<String> RUN = AttributeKey.stringKey("tokenflow.run_id");
    public static final AttributeKey<String> WORKFLOW = AttributeKey.stringKey("tokenflow.workflow");
    public static final AttributeKey<String> NODE = AttributeKey.stringKey("tokenflow.node_id");
    public static final AttributeKey<String> NODE_TYPE = AttributeKey.stringKey("tokenflow.node_type");
    public static final AttributeKey<String> TOKEN = AttributeKey.stringKey("tokenflow.token_id");
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("tokenflow.attempt");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("tokenflow.outcome");

    private static final Log log = LogFactory.getLog(RunSpans.class);
    private static final int FLUSH_MS = 1_000;
    private static final int BATCH = 512;
    private static final int QUEUED = 20_000;

    private final Resource resource = Resource.getDefault().merge(Resource.create(Attributes.of(
            AttributeKey.stringKey("service.name"), "tokenflow")));
    private final SpanExporter exporter;
    private final AtomicBoolean failing = new AtomicBoolean();
    private final ConcurrentLinkedQueue<SpanData> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final ScheduledExecutorService flusher;

    RunSpans(TracingSettings settings) {
        this.exporter = settings.exporting() ? OtlpHttpSpanExporter.builder()
                .setEndpoint(settings.otlpEndpoint().toString())
                .setTimeout(settings.exportTimeout().toMillis(), TimeUnit.MILLISECONDS).build() : null;
        this.flusher = exporter == null ? null : Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "tracing-spans");
            thread.setDaemon(true);
            return thread;
        });
        if (flusher != null) {
            flusher.scheduleWithFixedDelay(this::flush, FLUSH_MS, FLUSH_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Queues one span, sent with the next batch. */
    public void offer(SpanData span) {
        if (exporter == null) {
            return;
        }
        if (queued.incrementAndGet() > QUEUED) {
            queued.decrementAndGet();
            return;
        }
        queue.add(span);
    }

    /** Sends what is queued, a batch at a time. */
    void flush() {
        List<SpanData> batch = new ArrayList<>(BATCH);
        for (SpanData span = queue.poll(); span != null; span = queue.poll()) {
            queued.decrementAndGet();
            batch.add(span);
            if (batch.size() == BATCH) {
                export(batch);
                batch = new ArrayList<>(BATCH);
            }
        }
        export(batch);
    }

    /** Whether spans are sent: callers build none otherwise. */
    public boolean enabled() {
        return exporter != null;
    }

    /** A finished span of the run's trace. */
    public EngineSpan span(String name, String traceId, String spanId, String parentSpanId, Instant start, Instant end,
                           Attributes attributes, String error) {
        return new EngineSpan(name, traceId, spanId, parentSpanId, start, end, attributes, error, resource);
    }

    /** Sends spans without waiting for the answer. */
    public void export(Collection<SpanData> spans) {
        if (exporter == null || spans.isEmpty()) {
            return;
        }
        CompletableResultCode sent = exporter.export(spans);
        sent.whenComplete(() -> {
            if (sent.isSuccess()) {
                if (failing.compareAndSet(true, false)) {
                    log.info("Sending spans over OTLP works again");
                }
            } else if (failing.compareAndSet(false, true)) {
                log.warn("Could not send " + spans.size() + " spans over OTLP; they are dropped (logged once until "
                        + "sending works again)", sent.getFailureThrowable());
            }
        });
    }

    @Override
    public void destroy() {
        if (exporter != null) {
            flusher.shutdownNow();
            flush();
            exporter.flush().join(5, TimeUnit.SECONDS);
            exporter.shutdown().join(5, TimeUnit.SECONDS);
        }
    }
}
