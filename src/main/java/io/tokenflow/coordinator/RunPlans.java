package io.tokenflow.coordinator;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.KeyValue;
import org.springframework.stereotype.Component;

import io.tokenflow.designer.PinnedWorkflows;
import io.tokenflow.designer.WorkflowCompilation;
import tools.jackson.databind.json.JsonMapper;

/**
 * Run plans by run id, read from the run's Redis meta and its pinned workflow version. Cached per instance (a cache
 * only: any coordinator rebuilds a plan from Redis and PostgreSQL); a stale revision evicts the entry.
 */
@Component
public class RunPlans {

    private static final int CACHE_LIMIT = 50_000;

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final PinnedWorkflows workflows;
    private final RunRevisions revisions;
    private final WorkflowCompilation compilation;
    private final JsonMapper json;
    private final Map<UUID, RunPlan> plans = new ConcurrentHashMap<>();
    private final Map<String, WorkflowPlan> workflowPlans = new ConcurrentHashMap<>();

    RunPlans(RedisConnections redis, RedisKeys keys, PinnedWorkflows workflows, RunRevisions revisions,
             WorkflowCompilation compilation, JsonMapper json) {
        this.redis = redis;
        this.keys = keys;
        this.workflows = workflows;
        this.revisions = revisions;
        this.compilation = compilation;
        this.json = json;
    }

    /** The plan of a run that exists in Redis; empty when it does not (unknown or already cleaned up). */
    public Optional<RunPlan> find(UUID runId) {
        RunPlan cached = plans.get(runId);
        return cached != null ? Optional.of(cached) : load(runId);
    }

    public void evict(UUID runId) {
        plans.remove(runId);
    }

    /** Remembers a plan the caller just created (StartRun), saving the first completion a lookup. */
    public void remember(RunPlan plan) {
        if (plans.size() >= CACHE_LIMIT) {
            plans.clear();
        }
        plans.put(plan.runId(), plan);
    }

    private Optional<RunPlan> load(UUID runId) {
        int shard = keys.shardOf(runId);
        List<KeyValue<String, String>> meta = redis.commands()
                .hmget(keys.run(runId, shard).meta(), "workflow", "version", "revision", "input");
        if (meta.stream().anyMatch(KeyValue::isEmpty)) {
            return Optional.empty();
        }
        UUID workflowId = UUID.fromString(meta.get(0).getValue());
        int version = Integer.parseInt(meta.get(1).getValue());
        String revision = meta.get(2).getValue();
        WorkflowPlan workflow = "0".equals(revision) ? workflowPlan(workflowId, version)
                : revisionPlan(runId, workflowId, version, Integer.parseInt(revision));
        RunPlan plan = new RunPlan(runId, shard, revision, json.readTree(meta.get(3).getValue()), workflow,
                keys.run(runId, shard));
        remember(plan);
        return Optional.of(plan);
    }

    /** The plan of a run's own revision (its workflow after the run was patched), compiled from PostgreSQL. */
    private WorkflowPlan revisionPlan(UUID runId, UUID workflowId, int version, int revision) {
        String definition = revisions.definition(runId, revision).orElseThrow(() -> new IllegalStateException(
                "Expected revision " + revision + " of run " + runId + " in run_ir_revisions, but it is missing"));
        return WorkflowPlan.of(workflowId, version, compilation.compileOrThrow(json.readTree(definition)).ir(), json);
    }

    /** The dispatch-ready plan of a pinned workflow version, shared by all its runs. */
    public WorkflowPlan workflowPlan(UUID workflowId, int version) {
        return workflowPlans.computeIfAbsent(workflowId + "@" + version,
                key -> WorkflowPlan.of(workflowId, version, workflows.get(workflowId, version).ir(), json));
    }
}
