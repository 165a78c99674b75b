package io.tokenflow.coordinator;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Run plans by run id, read from the run's Redis meta and its pinned workflow version. Cached per instance (a cache
 * only: any coordinator rebuilds a plan from Redis and PostgreSQL); a stale revision evicts the entry.
 */
@Component
public class RunPlans {

    private static final int CACHE_LIMIT = 50_000;

    private final RunMeta meta;
    private final RedisKeys keys;
    private final WorkflowIrs irs;
    private final RunRevisions revisions;
    private final JsonMapper json;
    private final Map<UUID, RunPlan> plans = new ConcurrentHashMap<>();
    private final Map<String, WorkflowPlan> workflowPlans = new ConcurrentHashMap<>();

    RunPlans(RunMeta meta, RedisKeys keys, WorkflowIrs irs, RunRevisions revisions, JsonMapper json) {
        this.meta = meta;
        this.keys = keys;
        this.irs = irs;
        this.revisions = revisions;
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
        Optional<RunMeta.Pinned> found = meta.pinned(runId, shard);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        RunMeta.Pinned pinned = found.get();
        WorkflowPlan workflow = pinned.revision() == 0 ? workflowPlan(pinned.workflowId(), pinned.version())
                : revisionPlan(runId, pinned.workflowId(), pinned.version(), pinned.revision());
        RunPlan plan = new RunPlan(runId, shard, Integer.toString(pinned.revision()), json.readTree(pinned.input()),
                workflow, keys.run(runId, shard));
        remember(plan);
        return Optional.of(plan);
    }

    /**
     * The plan of a run that has no state in Redis (a failed run being resumed), from what its event log says; a plan
     * cached for the run is replaced.
     */
    RunPlan planOf(UUID runId, UUID workflowId, int version, int revision, JsonNode input) {
        int shard = keys.shardOf(runId);
        WorkflowPlan workflow = revision == 0 ? workflowPlan(workflowId, version)
                : revisionPlan(runId, workflowId, version, revision);
        RunPlan plan = new RunPlan(runId, shard, Integer.toString(revision), input, workflow, keys.run(runId, shard));
        remember(plan);
        return plan;
    }

    /** The plan of a run's own revision (its workflow after the run was patched), compiled from PostgreSQL. */
    private WorkflowPlan revisionPlan(UUID runId, UUID workflowId, int version, int revision) {
        String definition = revisions.definition(runId, revision).orElseThrow(() -> new IllegalStateException(
                "Expected revision " + revision + " of run " + runId + " in run_ir_revisions, but it is missing"));
        return WorkflowPlan.of(workflowId, version, irs.compile(json.readTree(definition)), json);
    }

    /** The dispatch-ready plan of a pinned workflow version, shared by all its runs. */
    private WorkflowPlan workflowPlan(UUID workflowId, int version) {
        return workflowPlans.computeIfAbsent(workflowId + "@" + version,
                key -> WorkflowPlan.of(workflowId, version, irs.pinned(workflowId, version), json));
    }

    /** The same, for a caller that holds the version's IR already (a start). */
    WorkflowPlan workflowPlan(UUID workflowId, int version, WorkflowIr ir) {
        return workflowPlans.computeIfAbsent(workflowId + "@" + version,
                key -> WorkflowPlan.of(workflowId, version, ir, json));
    }
}
