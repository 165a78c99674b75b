package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.routing.Emission;
import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.engine.routing.Router;
import io.tokenflow.engine.routing.TokenIds;
import tools.jackson.databind.JsonNode;

/**
 * Routes one completion signal: decides the next tokens in Java (engine {@link Router}), resolves their inputs, and
 * makes it all happen in one atomic, idempotent Lua step ({@code route-completion.lua}).
 */
@Component
class CompletionRouter {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final CoordinatorScripts scripts;
    private final Payloads payloads;
    private final RejectedSignals rejected;
    private final Clock clock;

    CompletionRouter(RedisConnections redis, RedisKeys keys, RunPlans plans, CoordinatorScripts scripts,
                     Payloads payloads, RejectedSignals rejected, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.scripts = scripts;
        this.payloads = payloads;
        this.rejected = rejected;
        this.clock = clock;
    }

    /** Routes one completion synchronously. */
    StepOutcome route(Signal.Completion completion, int shard) {
        Optional<Prepared> prepared = prepare(completion, shard);
        if (prepared.isEmpty()) {
            return StepOutcome.UNKNOWN_RUN;
        }
        long reply = scripts.routeCompletion().run(redis.commands(), prepared.get().step().keys(),
                prepared.get().step().args());
        return finish(prepared.get(), reply);
    }

    /**
     * Decides and prepares the Lua step of a completion; empty (and recorded as refused) when its run or node is
     * unknown. The step may then be sent pipelined with others and settled with {@link #finish}.
     */
    Optional<Prepared> prepare(Signal.Completion completion, int shard) {
        Optional<RunPlan> plan = plans.find(completion.run());
        if (plan.isEmpty()) {
            rejected.record(shard, completion, "Expected a running run " + completion.run() + ", but it is unknown "
                    + "(or finished and cleaned up)");
            return Optional.empty();
        }
        IrNode node = plan.get().workflow().node(completion.node());
        if (node == null) {
            rejected.record(shard, completion, "Expected node '" + completion.node() + "' in the run's workflow, but "
                    + "it has no such node");
            return Optional.empty();
        }
        return Optional.of(new Prepared(completion, shard, node, step(plan.get(), node, completion)));
    }

    /** Interprets the reply of a prepared step: records refusals, and retries once on a stale IR revision. */
    StepOutcome finish(Prepared prepared, long reply) {
        Signal.Completion completion = prepared.completion();
        StepOutcome outcome = StepOutcome.of(reply);
        if (outcome == StepOutcome.STALE_REVISION) {
            plans.evict(completion.run());
            return plans.find(completion.run()).map(fresh -> StepOutcome.of(scripts.routeCompletion().run(
                    redis.commands(), step(fresh, prepared.node(), completion).keys(),
                    step(fresh, prepared.node(), completion).args()))).orElse(StepOutcome.UNKNOWN_RUN);
        }
        if (outcome == StepOutcome.UNKNOWN_RUN || outcome == StepOutcome.UNKNOWN_TOKEN) {
            rejected.record(prepared.shard(), completion, outcome == StepOutcome.UNKNOWN_RUN
                    ? "Expected a running run " + completion.run() + ", but it is unknown"
                    : "Expected token " + completion.token() + " to be in flight at node '" + completion.node()
                    + "', but it is not (never emitted there, or already consumed)");
        }
        return outcome;
    }

    /** A completion with its Lua step ready to run. */
    record Prepared(Signal.Completion completion, int shard, IrNode node, StepArguments step) {
    }

    private StepArguments step(RunPlan plan, IrNode node, Signal.Completion completion) {
        RedisKeys.RunKeys run = plan.keys(keys);
        StepArguments step = new StepArguments(List.of(run.meta(), run.counter(), run.tokens(), run.consumed(),
                run.ctx(), run.joins(), keys.activeRuns(plan.shard()), keys.eventsStream(plan.shard()),
                keys.completionsStream(plan.shard())));
        long now = clock.millis();
        String contextValue = completion.succeeded()
                ? payloads.contextValue(completion.outputText(), completion.outputRef()) : "";
        List<Emission> emissions = completion.succeeded() ? Router.route(plan.workflow().ir(), node.id(), 0) : List.of();
        step.args(plan.runId().toString(), Long.toString(now), completion.token(), completion.node(), plan.revision(),
                completion.succeeded() ? "completed" : "failed", completion.node(), contextValue,
                nodeEventData(completion, contextValue, emissions.isEmpty()));
        if (!completion.succeeded()) {
            step.args("0");
        } else {
            addEmissions(step, plan, node, emissions, completion, now);
        }
        return step;
    }

    private void addEmissions(StepArguments step, RunPlan plan, IrNode node, List<Emission> emissions,
                              Signal.Completion completion, long now) {
        step.args(Integer.toString(emissions.size()));
        NodeOutputs outputs = new NodeOutputs(plan, completion, referencedBy(plan, emissions, node.id()));
        for (Emission emission : emissions) {
            String child = TokenIds.child(completion.token(), emission.target(), emission.iteration());
            String emitted = EventData.tokenEmitted(payloads, node.id(), completion.token(), emission.iteration(),
                    emission.join());
            if (emission.join()) {
                step.args("join", child, emission.target(), emitted, emission.target() + "#" + emission.iteration(),
                        Integer.toString(emission.expected()), node.id(),
                        TokenIds.join(plan.runId().toString(), emission.target(), emission.iteration()),
                        EventData.tokenEmitted(payloads, null, null, emission.iteration(), false),
                        Integer.toString(emission.iteration()));
            } else {
                IrNode target = plan.workflow().node(emission.target());
                Payloads.TaskInput input = outputs.inputFor(target);
                TaskEntry entry = new TaskEntry(child, plan.runId(), target.id(), target.worker(), emission.iteration(),
                        1, input.inline(), input.reference(), plan.workflow().configs().get(target.id()), now, node.id());
                int stream = step.key(keys.taskStream(target.worker(), plan.shard()));
                List<String> fields = entry.fields();
                step.args("task", child, target.id(), emitted, Integer.toString(stream), Integer.toString(fields.size()));
                step.args(fields);
            }
        }
    }

    private Map<String, JsonNode> referencedBy(RunPlan plan, List<Emission> emissions, String self) {
        Set<String> referenced = new LinkedHashSet<>();
        for (Emission emission : emissions) {
            JsonNode mapping = plan.workflow().node(emission.target()).inputMapping();
            if (!emission.join() && mapping != null) {
                referenced.addAll(InputResolver.referencedNodes(mapping));
            }
        }
        referenced.remove(self);
        Map<String, JsonNode> values = new HashMap<>();
        if (!referenced.isEmpty()) {
            var found = redis.commands().hmget(plan.keys(keys).ctx(), referenced.toArray(String[]::new));
            found.forEach(kv -> values.put(kv.getKey(), kv.hasValue() ? payloads.fromContext(kv.getValue()) : null));
        }
        return values;
    }

    private String nodeEventData(Signal.Completion completion, String contextValue, boolean terminal) {
        String common = "\"iteration\":0,\"worker\":" + payloads.quote(completion.worker()) + ",\"started_at\":"
                + (completion.startedAt() == null ? "null" : completion.startedAt().toString());
        return completion.succeeded() ? "{" + common + ",\"terminal\":" + terminal + ",\"output\":" + contextValue + "}"
                : "{" + common + ",\"error\":" + completion.errorJson() + "}";
    }

    /** The completed node's output and the outputs its targets' input mappings read. */
    private final class NodeOutputs {
        private final RunPlan plan;
        private final Signal.Completion completion;
        private final Map<String, JsonNode> others;
        private JsonNode own;

        NodeOutputs(RunPlan plan, Signal.Completion completion, Map<String, JsonNode> others) {
            this.plan = plan;
            this.completion = completion;
            this.others = others;
        }

        Payloads.TaskInput inputFor(IrNode target) {
            if (target.inputMapping() == null) {
                return completion.outputRef() != null ? new Payloads.TaskInput(null, completion.outputRef())
                        : completion.outputText().length() <= Payloads.INLINE_LIMIT
                        ? new Payloads.TaskInput(completion.outputText(), null) : payloads.taskInput(own());
            }
            return payloads.taskInput(InputResolver.resolve(target.inputMapping(), plan.input(),
                    id -> id.equals(completion.node()) ? own() : others.get(id)));
        }

        private JsonNode own() {
            if (own == null) {
                own = payloads.fromContext(payloads.contextValue(completion.outputText(), completion.outputRef()));
            }
            return own;
        }
    }

    /** KEYS and ARGV of one Lua call; task streams are added to KEYS once each. */
    static final class StepArguments {
        private final List<String> keys;
        private final List<String> args = new ArrayList<>(64);

        StepArguments(List<String> fixedKeys) {
            this.keys = new ArrayList<>(fixedKeys);
        }

        /** The 1-based KEYS index of a key, adding it when new. */
        int key(String key) {
            int index = keys.indexOf(key);
            if (index < 0) {
                keys.add(key);
                return keys.size();
            }
            return index + 1;
        }

        void args(String... values) {
            args.addAll(List.of(values));
        }

        void args(List<String> values) {
            args.addAll(values);
        }

        List<String> keys() {
            return keys;
        }

        List<String> args() {
            return args;
        }
    }
}
