package io.tokenflow.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunPlan;
import io.tokenflow.coordinator.RunPlans;
import io.tokenflow.engine.ir.IrNode;
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
 * Tags are bounded: the workflow's name and the node's authored type, never a run or token id. A run's labels come from
 * its plan ({@link RunPlans}, cached); a run whose plan is gone (ended and cleaned up before its events were written)
 * counts under workflow and node type {@code unknown}. Counting never stops the event log: a failure is logged.
 */
@Component
class RunMetrics {

    private static final Log log = LogFactory.getLog(RunMetrics.class);
    private static final String UNKNOWN = "unknown";
    private static final Duration[] HOP_BUCKETS = {Duration.ofMillis(10), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5)};
    private static final Duration[] RUN_BUCKETS = {Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(1),
        Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofDays(1)};

    private final MeterRegistry meters;
    private final RunPlans plans;
    private final JdbcClient jdbc;
    private final Cache<UUID, Labels> labels = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterAccess(Duration.ofHours(1)).build();
    private final Cache<String, Instant> emitted = Caffeine.newBuilder().maximumSize(200_000)
            .expireAfterWrite(Duration.ofHours(6)).build();
    private final Cache<UUID, Instant> started = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterWrite(Duration.ofDays(1)).build();

    /** A run's workflow name and its nodes' types. */
    private record Labels(String workflow, Map<String, String> nodeTypes) {

        String type(String node) {
            return node == null ? UNKNOWN : nodeTypes.getOrDefault(node, UNKNOWN);
        }
    }

    RunMetrics(MeterRegistry meters, RunPlans plans, JdbcClient jdbc) {
        this.meters = meters;
        this.plans = plans;
        this.jdbc = jdbc;
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
            started.put(run, event.at());
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
        Labels of = labels(run, event.node());
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
        Labels of = labels(run, event.node());
        Timer.builder("tokenflow.hop.latency").description("A token's emission to its node's completion or failure")
                .tags("workflow", of.workflow(), "node_type", of.type(event.node())).serviceLevelObjectives(HOP_BUCKETS)
                .register(meters).record(Duration.between(at, event.at()));
    }

    private void mapItem(UUID run, String node, String outcome) {
        Labels of = labels(run, node);
        Counter.builder("tokenflow.map.items").description("Map elements done")
                .tags("workflow", of.workflow(), "node_type", of.type(node), "outcome", outcome)
                .register(meters).increment();
    }

    private void ended(UUID run, RunEnding ending) {
        String status = ending.endsAs().name().toLowerCase(Locale.ROOT);
        String workflow = labels(run, null).workflow();
        Counter.builder("tokenflow.runs.ended").description("Runs ended, by the status they ended in")
                .tags("workflow", workflow, "status", status).register(meters).increment();
        Optional<Instant> start = Optional.ofNullable(started.getIfPresent(run)).or(() -> startedAt(run));
        start.ifPresent(at -> Timer.builder("tokenflow.run.duration").description("A run's start to its end")
                .tags("workflow", workflow, "status", status).serviceLevelObjectives(RUN_BUCKETS).register(meters)
                .record(Duration.between(at, ending.at())));
        started.invalidate(run);
        labels.invalidate(run);
    }

    private Optional<Instant> startedAt(UUID run) {
        return jdbc.sql("select started_at from runs where id = ?").param(run).query(OffsetDateTime.class).optional()
                .map(OffsetDateTime::toInstant);
    }

    private Counter nodeCounter(String name, String description, UUID run, String node) {
        Labels of = labels(run, node);
        return counter(name, description, "workflow", of.workflow(), "node_type", of.type(node));
    }

    private Counter counter(String name, String description, String... tags) {
        return Counter.builder(name).description(description).tags(tags).register(meters);
    }

    /** The run's labels; read again from its plan when they lack {@code node} (a node a run patch added). */
    private Labels labels(UUID run, String node) {
        Labels known = labels.getIfPresent(run);
        if (known != null && (node == null || known.nodeTypes().containsKey(node))) {
            return known;
        }
        if (known != null) {
            plans.evict(run);
        }
        Labels found = plans.find(run).map(RunMetrics::labelsOf).orElse(new Labels(UNKNOWN, Map.of()));
        labels.put(run, found);
        return found;
    }

    private static Labels labelsOf(RunPlan plan) {
        Map<String, String> types = new HashMap<>();
        for (IrNode node : plan.workflow().ir().nodes().values()) {
            types.put(node.id(), node.nodeType() != null ? node.nodeType() : node.type());
        }
        String name = plan.workflow().ir().name();
        return new Labels(name == null || name.isBlank() ? UNKNOWN : name, types);
    }
}
