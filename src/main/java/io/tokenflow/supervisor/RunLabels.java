package io.tokenflow.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunPlan;
import io.tokenflow.coordinator.RunPlans;
import io.tokenflow.engine.ir.IrNode;

/**
 * What the metrics and the spans say of a run: its workflow name and its nodes' authored types, read from the run's
 * plan ({@link RunPlans}, cached) and kept an hour after their last use (a run whose plan is gone, ended and cleaned
 * up before its events were written, is {@code unknown}); and when it started, seen in its {@code run.started} or read
 * from its row. Both are forgotten once the run's end is written.
 */
@Component
class RunLabels {

    static final String UNKNOWN = "unknown";

    private final RunPlans plans;
    private final JdbcClient jdbc;
    private final Cache<UUID, Instant> started = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterWrite(Duration.ofDays(1)).build();
    private final Cache<UUID, Labels> labels = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterAccess(Duration.ofHours(1)).build();

    /** A run's workflow name and its nodes' types. */
    record Labels(String workflow, Map<String, String> nodeTypes) {

        String type(String node) {
            return node == null ? UNKNOWN : nodeTypes.getOrDefault(node, UNKNOWN);
        }
    }

    RunLabels(RunPlans plans, JdbcClient jdbc) {
        this.plans = plans;
        this.jdbc = jdbc;
    }

    /** Notes when a run started ({@code run.started} just written). */
    void started(UUID run, Instant at) {
        started.put(run, at);
    }

    /** When the run started: as noted, else from its row; empty when neither knows. */
    Optional<Instant> startedAt(UUID run) {
        return Optional.ofNullable(started.getIfPresent(run)).or(() -> jdbc.sql("select started_at from runs "
                + "where id = ?").param(run).query(OffsetDateTime.class).optional().map(OffsetDateTime::toInstant));
    }

    /** Forgets a run whose end was written and counted. */
    void forget(UUID run) {
        started.invalidate(run);
        labels.invalidate(run);
    }

    /** The run's labels; read again from its plan when they lack {@code node} (a node a run patch added). */
    Labels of(UUID run, String node) {
        Labels known = labels.getIfPresent(run);
        if (known != null && (node == null || known.nodeTypes().containsKey(node))) {
            return known;
        }
        if (known != null) {
            plans.evict(run);
        }
        Labels found = plans.find(run).map(RunLabels::labelsOf).orElse(new Labels(UNKNOWN, Map.of()));
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
