package io.tokenflow.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.NodeCompleted;
import io.tokenflow.engine.replay.NodeDiscarded;
import io.tokenflow.engine.replay.NodeFailed;
import io.tokenflow.engine.replay.NodeParked;
import io.tokenflow.engine.replay.NodeRetrying;
import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunFailed;
import io.tokenflow.engine.replay.TokenEmitted;
import io.tokenflow.tracing.RunSpans;
import io.tokenflow.tracing.TraceIds;

/**
 * The spans of each run, built from the batches the supervisor writes to the event log when tracing is on ({@link
 * RunSpans#enabled()}): a node execution's span (a token at its node, from its emission to its completion, failure or
 * discard) with a child per attempt (its dispatch to its end: completed, failed, retried, parked), both under the
 * run's span, sent when the run ends. Ids come from {@link TraceIds}, so spans of one run written by different
 * supervisors (a shard taken over) still form one trace; a span whose start this instance did not see (its emission
 * was written elsewhere) is left out. Tracing never stops the event log: a failure is logged.
 */
@Component
class RunTraces {

    private static final Log log = LogFactory.getLog(RunTraces.class);

    private final RunSpans spans;
    private final RunLabels labels;
    /** Tokens whose node span is open: when it began, and the attempt under way with its start. */
    private final Cache<String, Open> open = Caffeine.newBuilder().maximumSize(200_000)
            .expireAfterWrite(Duration.ofHours(6)).build();

    private record Open(Instant since, int attempt, Instant attemptSince) {
    }

    RunTraces(RunSpans spans, RunLabels labels) {
        this.spans = spans;
        this.labels = labels;
    }

    /** Builds and sends the spans the entries just written end. */
    void record(List<EventsEntry> logged) {
        if (!spans.enabled()) {
            return;
        }
        try {
            List<SpanData> ended = new ArrayList<>();
            for (EventsEntry entry : logged) {
                for (RunEvent event : entry.events()) {
                    record(entry.run(), event, ended);
                }
            }
            spans.export(ended);
        } catch (RuntimeException e) {
            log.warn("Could not build the spans of " + logged.size() + " event log entries; they are left out", e);
        }
    }

    private void record(UUID run, RunEvent event, List<SpanData> ended) {
        if (event instanceof TokenEmitted emitted) {
            if (!emitted.join()) {   // a token parked at a join is consumed by the join, never completed
                open.put(event.token(), new Open(event.at(), 1, event.at()));
            }
        } else if (event instanceof NodeRetrying retrying) {
            Open was = open.getIfPresent(event.token());
            if (was != null) {
                ended.add(attempt(run, event, retrying.attempt(), was.attemptSince(), "retried", error(event)));
                open.put(event.token(), new Open(was.since(), retrying.nextAttempt(), retrying.dueAt()));
            }
        } else if (event instanceof NodeParked) {
            Open was = open.getIfPresent(event.token());
            if (was != null) {
                ended.add(attempt(run, event, was.attempt(), was.attemptSince(), "parked", error(event)));
                open.put(event.token(), new Open(was.since(), was.attempt() + 1, event.at()));
            }
        } else if (event instanceof NodeCompleted || event instanceof NodeFailed || event instanceof NodeDiscarded) {
            Open was = open.getIfPresent(event.token());
            if (was != null) {
                open.invalidate(event.token());
                String outcome = event instanceof NodeCompleted ? "completed"
                        : event instanceof NodeFailed ? "failed" : "discarded";
                String error = event instanceof NodeCompleted ? null : error(event);
                if (!(event instanceof NodeDiscarded)) {
                    ended.add(attempt(run, event, was.attempt(), was.attemptSince(), outcome, error));
                }
                ended.add(node(run, event, was.since(), outcome, error));
            }
        } else if (event instanceof RunEnding ending) {
            labels.startedAt(run).ifPresent(at -> ended.add(run(run, ending, at)));
        }
    }

    private SpanData node(UUID run, RunEvent event, Instant since, String outcome, String error) {
        RunLabels.Labels of = labels.of(run, event.node());
        return spans.span("node " + event.node(), TraceIds.traceId(run), TraceIds.nodeSpan(event.token()),
                TraceIds.runSpan(run), since, event.at(), Attributes.builder().put(RunSpans.RUN, run.toString())
                        .put(RunSpans.WORKFLOW, of.workflow()).put(RunSpans.NODE, event.node())
                        .put(RunSpans.NODE_TYPE, of.type(event.node())).put(RunSpans.TOKEN, event.token())
                        .put(RunSpans.OUTCOME, outcome).build(), error);
    }

    private SpanData attempt(UUID run, RunEvent event, int attempt, Instant since, String outcome, String error) {
        return spans.span("attempt " + attempt, TraceIds.traceId(run), TraceIds.attemptSpan(event.token(), attempt),
                TraceIds.nodeSpan(event.token()), since, event.at(), Attributes.builder()
                        .put(RunSpans.RUN, run.toString()).put(RunSpans.NODE, event.node())
                        .put(RunSpans.TOKEN, event.token()).put(RunSpans.ATTEMPT, attempt)
                        .put(RunSpans.OUTCOME, outcome).build(), error);
    }

    private SpanData run(UUID run, RunEnding ending, Instant since) {
        String workflow = labels.of(run, null).workflow();
        String status = ending.endsAs().name().toLowerCase(java.util.Locale.ROOT);
        String error = ending instanceof RunFailed failed ? failed.reason() : null;
        return spans.span("run " + workflow, TraceIds.traceId(run), TraceIds.runSpan(run), null, since, ending.at(),
                Attributes.builder().put(RunSpans.RUN, run.toString()).put(RunSpans.WORKFLOW, workflow)
                        .put(RunSpans.OUTCOME, status).build(), error);
    }

    private static String error(RunEvent event) {
        return event.data().path("error").isMissingNode() ? event.type().toString()
                : event.data().path("error").path("message").asString(event.data().path("error").toString());
    }
}
