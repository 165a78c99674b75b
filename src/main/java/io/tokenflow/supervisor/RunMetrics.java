package io.tokenflow.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.MapItemCompleted;
import io.tokenflow.engine.replay.MapItemFailed;
import io.tokenflow.engine.replay.NodeCompleted;
import io.tokenflow.engine.replay.NodeDiscarded;
import io.tokenflow.engine.replay.NodeFailed;
import io.tokenflow.engine.replay.NodeParked;
import io.tokenflow.engine.replay.NodeRetrying;
import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.engine.replay.TokenEmitted;

/**
 * The engine's counters and timers, taken from each batch the supervisor writes to the event log: every event is
 * counted once, by the instance writing its shard, whichever process (coordinator, worker, engine-held wait) caused it.
 * Tokens emitted and consumed, retries, tokens parked in the DLQ, map elements, runs started and ended by status, run
 * duration (start to end) and hop latency (a token's emission to its node's completion or failure; the emission is
 * remembered in memory, so a hop whose emission another supervisor logged is not timed).
 * <p>
 * Tags are bounded: the workflow's name and the node's authored type ({@link RunLabels}), never a run or token id.
 * Counting never stops the event log: a failure is logged.
 */
@Component
class RunMetrics {

    private static final Log log = LogFactory.getLog(RunMetrics.class);
    private static final Duration[] HOP_BUCKETS = {Duration.ofMillis(10), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5)};
    private static final Duration[] RUN_BUCKETS = {Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(1),
        Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofDays(1)};

    private final MeterRegistry meters;
    private final RunLabels runLabels;
    private final Cache<String, Instant> emitted = Caffeine.newBuilder().maximumSize(200_000)
            .expireAfterWrite(Duration.ofHours(6)).build();

    RunMetrics(MeterRegistry meters, RunLabels runLabels) {
        this.meters = meters;
        this.runLabels = runLabels;
    }

    /** Counts the events of entries just written to the event log. */
    void record(List<EventsEntry> logged) {
        try {
            for (EventsEntry entry : logged) {
                for (RunEvent event : entry.events()) {
                    record(entry.run(), event);
                }
            }
        } catch (RuntimeException e) {
            log.warn("Could not count the events of " + logged.size() + " event log entries in the metrics; they are "
                    + "left out", e);
        }
    }

    private void record(UUID run, RunEvent event) {
        if (event instanceof RunStarted) {
            runLabels.started(run, event.at());
            counter("tokenflow.runs.started", "Runs started", "workflow", labels(run, null).workflow()).increment();
        } else if (event instanceof TokenEmitted token) {
            if (!token.join()) {
                emitted.put(token.token(), token.at());
            }
            nodeCounter("tokenflow.tokens.emitted", "Tokens emitted towards a node", run, token.node()).increment();
        } else if (event instanceof NodeCompleted) {
            consumed(run, event, "completed");
        } else if (event instanceof NodeFailed) {
            consumed(run, event, "failed");
        } else if (event instanceof NodeDiscarded) {
            consumed(run, event, "discarded");
        } else if (event instanceof NodeRetrying) {
            hop(run, event);
            nodeCounter("tokenflow.node.retries", "Failed attempts tried again by the node's retry policy", run,
                    event.node()).increment();
        } else if (event instanceof NodeParked) {
            nodeCounter("tokenflow.dlq.parked", "Tokens parked in the dead-letter queue", run, event.node())
                    .increment();
        } else if (event instanceof MapItemCompleted) {
            mapItem(run, event.node(), "completed");
        } else if (event instanceof MapItemFailed) {
            mapItem(run, event.node(), "failed");
        } else if (event instanceof RunEnding ending) {
            ended(run, ending);
        }
    }

    private void consumed(UUID run, RunEvent event, String outcome) {
        hop(run, event);
        RunLabels.Labels of = labels(run, event.node());
        Counter.builder("tokenflow.tokens.consumed").description("Tokens consumed: their node completed, failed or "
                        + "was discarded from the dead-letter queue")
                .tags("workflow", of.workflow(), "node_type", of.type(event.node()), "outcome", outcome)
                .register(meters).increment();
    }

    /** Times the hop that ended with this event, when this instance logged the token's emission. */
    private void hop(UUID run, RunEvent event) {
        Instant at = event.token() == null ? null : emitted.getIfPresent(event.token());
        if (at == null) {
            return;
        }
        if (!(event instanceof NodeRetrying)) {
            emitted.invalidate(event.token());
        }
        RunLabels.Labels of = labels(run, event.node());
        Timer.builder("tokenflow.hop.latency").description("A token's emission to its node's completion or failure")
                .tags("workflow", of.workflow(), "node_type", of.type(event.node())).serviceLevelObjectives(HOP_BUCKETS)
                .register(meters).record(elapsed(at, event.at()));
    }

    private void mapItem(UUID run, String node, String outcome) {
        RunLabels.Labels of = labels(run, node);
        Counter.builder("tokenflow.map.items").description("Map elements done")
                .tags("workflow", of.workflow(), "node_type", of.type(node), "outcome", outcome)
                .register(meters).increment();
    }

    private void ended(UUID run, RunEnding ending) {
        String status = ending.endsAs().name().toLowerCase(Locale.ROOT);
        String workflow = labels(run, null).workflow();
        Counter.builder("tokenflow.runs.ended").description("Runs ended, by the status they ended in")
                .tags("workflow", workflow, "status", status).register(meters).increment();
        runLabels.startedAt(run).ifPresent(at -> Timer.builder("tokenflow.run.duration").description("A run's start to its end")
                .tags("workflow", workflow, "status", status).serviceLevelObjectives(RUN_BUCKETS).register(meters)
                .record(elapsed(at, ending.at())));
    }

    /**
     * The time between two events, never negative: they may come from processes whose clocks differ a little, and a
     * Micrometer timer refuses a negative measurement (which would fail the whole batch's metrics).
     */
    private static Duration elapsed(Instant from, Instant to) {
        Duration between = Duration.between(from, to);
        return between.isNegative() ? Duration.ZERO : between;
    }

    private Counter nodeCounter(String name, String description, UUID run, String node) {
        RunLabels.Labels of = labels(run, node);
        return counter(name, description, "workflow", of.workflow(), "node_type", of.type(node));
    }

    private Counter counter(String name, String description, String... tags) {
        return Counter.builder(name).description(description).tags(tags).register(meters);
    }

    private RunLabels.Labels labels(UUID run, String node) {
        return runLabels.of(run, node);
    }
}
