package io.tokenflow.coordinator;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.lettuce.core.SetArgs;
import org.springframework.stereotype.Component;

import io.tokenflow.designer.PinnedWorkflow;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.TokenEmitted;
import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.engine.routing.TokenIds;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

/**
 * Starts runs in Redis: the run's state and its entry tokens (approval requests at human entry nodes) in one atomic
 * step ({@code start-run.lua}), and
 * idempotency keys that map a retried start to the run it already made.
 */
@Component
public class RunStarter {

    private static final Duration IDEMPOTENCY_WINDOW = Duration.ofDays(1);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final TokenEmitter emitter;
    private final Clock clock;

    RunStarter(RedisConnections redis, RedisKeys keys, RunPlans plans, LuaScripts scripts, Payloads payloads,
               TokenEmitter emitter, Clock clock) {
        this.emitter = emitter;
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.scripts = scripts;
        this.payloads = payloads;
        this.clock = clock;
    }

    /** The run an idempotency key is bound to in Redis, if any. */
    public Optional<UUID> boundRun(String idempotencyKey) {
        String key = keys.idempotencyKey(idempotencyKey);
        return Optional.ofNullable(redis.commands().get(key)).map(UUID::fromString);
    }

    /** Binds an idempotency key to a new run id; the run id it is already bound to, if any. */
    public Optional<UUID> claim(String idempotencyKey, UUID runId) {
        String key = keys.idempotencyKey(idempotencyKey);
        String set = redis.commands().set(key, runId.toString(), SetArgs.Builder.nx().ex(IDEMPOTENCY_WINDOW));
        return "OK".equals(set) ? Optional.empty() : Optional.ofNullable(redis.commands().get(key)).map(UUID::fromString);
    }

    /** Unbinds an idempotency key from a run that could not be started, so a retry can start it. */
    public void release(String idempotencyKey, UUID runId) {
        String key = keys.idempotencyKey(idempotencyKey);
        if (runId.toString().equals(redis.commands().get(key))) {
            redis.commands().del(key);
        }
    }

    /**
     * Starts a run of a pinned version: emits one token per entry node with its resolved input.
     *
     * @param startedData the run.started event data (JSON object text)
     */
    public void start(UUID runId, PinnedWorkflow pinned, JsonNode input, String startedData) {
        int shard = keys.shardOf(runId);
        UUID workflowId = pinned.workflowId();
        int version = pinned.version();
        WorkflowPlan workflow = plans.workflowPlan(workflowId, version, pinned.ir());
        RedisKeys.RunKeys run = keys.run(runId, shard);
        RunPlan plan = new RunPlan(runId, shard, "0", input, workflow, run);
        StepArguments step = new StepArguments(List.of(run.meta(), run.counter(),
                run.tokens(), keys.activeRuns(shard), keys.eventsStream(shard), run.approvals(), run.retries(),
                keys.dueTimes(shard)));
        long now = clock.millis();
        List<String> entries = workflow.ir().entryNodes();
        step.args(runId.toString(), Long.toString(now), workflowId.toString(), Integer.toString(version), "0",
                payloads.write(input), startedData, Integer.toString(entries.size()));
        for (String entry : entries) {
            addEntryToken(step, plan, workflow.node(entry), now);
        }
        List<String> limited = entries.stream().filter(entry -> workflow.node(entry).limits() != null
                && workflow.node(entry).limits().maxHops() != null).toList();
        step.args(Integer.toString(limited.size()));
        step.args(limited);
        if (workflow.ir().deadline() != null) {
            step.args(Long.toString(workflow.ir().deadline().ms()));
        }
        plans.remember(plan);
        long reply = scripts.startRun().run(redis.commands(), step.keys(), step.args());
        if (reply < 0) {
            throw new IllegalStateException("Expected a new run " + runId + ", but it exists already");
        }
    }

    private void addEntryToken(StepArguments step, RunPlan plan, IrNode node, long now) {
        String token = TokenIds.entry(plan.runId().toString(), node.id());
        JsonNode input = node.inputMapping() == null ? plan.input()
                : InputResolver.resolve(node.inputMapping(), plan.input(), id -> null);
        Payloads.TaskInput taskInput = payloads.taskInput(plan, input);
        String emitted = TokenEmitted.data(null, null, 0, false);
        if (node.human() != null) {
            step.args("human", token, node.id(), emitted, TokenEmitter.approvalId(plan.runId(), token).toString(),
                    emitter.approvalRequest(plan, node, token, 0, taskInput, now));
            return;
        }
        TaskEntry entry = new TaskEntry(token, plan.runId(), node.id(), node.worker(), 0, 1, taskInput.inline(),
                taskInput.reference(), plan.workflow().configs().get(node.id()), now, null);
        List<String> fields = entry.fields();
        int stream = step.key(keys.taskStream(node.worker(), plan.shard()));
        step.args(node.taskKind(), token, node.id(), emitted, Integer.toString(stream),
                Integer.toString(fields.size()));
        step.args(new ArrayList<>(fields));
    }
}
