package io.tokenflow.coordinator;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.opentelemetry.api.common.Attributes;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.conditions.ConditionContext;
import io.tokenflow.engine.ir.IrCompensator;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.EventDataText;
import io.tokenflow.engine.replay.NodeCompleted;
import io.tokenflow.engine.replay.NodeFailed;
import io.tokenflow.engine.replay.StorableValues;
import io.tokenflow.engine.routing.AgentDecision;
import io.tokenflow.engine.routing.Router;
import io.tokenflow.engine.routing.Routing;
import io.tokenflow.engine.routing.RoutingInput;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;
import io.tokenflow.tracing.RunSpans;
import io.tokenflow.tracing.TraceIds;
import tools.jackson.databind.JsonNode;

/**
 * Routes one completion signal: decides the next tokens in Java (engine {@link Router}), resolves their inputs, and
 * makes it all happen in one atomic, idempotent Lua step ({@code route-completion.lua}).
 */
@Component
class CompletionRouter {

    /** How many times one completion is decided before it is left pending (see {@link #finish}). */
    private static final int DECISIONS = 8;

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final RejectedSignals rejected;
    private final NodeRetries retries;
    private final DeadLetters deadLetters;
    private final Router router;
    private final TokenEmitter emitter;
    private final RunLimits limits;
    private final Compensations compensations;
    private final MapItems maps;
    private final Clock clock;

    private final RunSpans spans;

    CompletionRouter(RedisConnections redis, RedisKeys keys, RunPlans plans, LuaScripts scripts,
                     Payloads payloads, RejectedSignals rejected, NodeRetries retries, DeadLetters deadLetters,
                     Router router, TokenEmitter emitter, RunLimits limits, Compensations compensations,
                     MapItems maps, RunSpans spans, Clock clock) {
        this.spans = spans;
        this.compensations = compensations;
        this.maps = maps;
        this.retries = retries;
        this.deadLetters = deadLetters;
        this.limits = limits;
        this.router = router;
        this.emitter = emitter;
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
     * Decides and prepares the Lua step of a completion. Empty when there is nothing to route: its run or node is
     * unknown (recorded as refused), it is a map element's ({@link MapItems}), or it is a failure its node's retry
     * policy tries again ({@link NodeRetries}) or parks in the dead-letter queue ({@link DeadLetters}). The
     * step may then be sent pipelined with others and settled with {@link #finish}.
     */
    Optional<Prepared> prepare(Signal.Completion reported, int shard) {
        Signal.Completion completion = storable(reported);
        Optional<RunPlan> plan = plans.find(completion.run());
        if (plan.isEmpty()) {
            rejected.record(shard, completion, "Expected a running run " + completion.run() + ", but it is unknown "
                    + "(or finished and cleaned up)");
            return Optional.empty();
        }
        IrNode node = plan.get().workflow().node(completion.node());
        if (node == null && IrCompensator.compensated(completion.node()) != null) {
            compensations.complete(plan.get(), completion);
            return Optional.empty();
        }
        if (node == null) {
            rejected.record(shard, completion, "Expected node '" + completion.node() + "' in the run's workflow, but "
                    + "it has no such node");
            return Optional.empty();
        }
        if (node.map() != null && maps.completed(plan.get(), node, completion)) {
            return Optional.empty();
        }
        if (retries.retried(plan.get(), node, completion) || deadLetters.parked(plan.get(), node, completion)) {
            return Optional.empty();
        }
        return Optional.of(new Prepared(completion, shard, node, step(plan.get(), node, completion),
                spans.enabled() ? clock.instant() : null));
    }

    /**
     * Interprets the reply of a prepared step: records refusals, and decides again when the step was decided on stale
     * facts: once for an older IR revision, and as long as another completion moved a loop meanwhile (a pass count,
     * or the run's last handed-out iteration; each such refusal means another step went through). Throws when the
     * loops keep moving past {@value #DECISIONS} decisions: the completion then stays pending and comes back.
     */
    StepOutcome finish(Prepared prepared, long reply) {
        Signal.Completion completion = prepared.completion();
        StepOutcome outcome = StepOutcome.of(reply);
        boolean revised = false;
        for (int decisions = 1; outcome == StepOutcome.LOOP_MOVED
                || outcome == StepOutcome.STALE_REVISION && !revised; decisions++) {
            if (decisions == DECISIONS) {
                throw new IllegalStateException("Expected the loops of run " + completion.run() + " to hold still "
                        + "while token " + completion.token() + " was routed, but they moved " + DECISIONS + " times");
            }
            if (outcome == StepOutcome.STALE_REVISION) {
                plans.evict(completion.run());
                revised = true;
            }
            Optional<RunPlan> fresh = plans.find(completion.run());
            if (fresh.isEmpty()) {
                return StepOutcome.UNKNOWN_RUN;
            }
            StepArguments again = step(fresh.get(), prepared.node(), completion);
            outcome = StepOutcome.of(scripts.routeCompletion().run(redis.commands(), again.keys(), again.args()));
        }
        if (outcome == StepOutcome.UNKNOWN_RUN || outcome == StepOutcome.UNKNOWN_TOKEN) {
            rejected.record(prepared.shard(), completion, outcome == StepOutcome.UNKNOWN_RUN
                    ? "Expected a running run " + completion.run() + ", but it is unknown"
                    : "Expected token " + completion.token() + " to be in flight at node '" + completion.node()
                    + "', but it is not (never emitted there, or already consumed)");
        }
        if (prepared.since() != null) {
            spans.offer(spans.span("route-completion", TraceIds.traceId(completion.run()),
                    TraceIds.stepSpan(completion.token(), completion.entryId()), TraceIds.nodeSpan(completion.token()),
                    prepared.since(), clock.instant(), Attributes.builder().put(RunSpans.RUN, completion.run().toString())
                            .put(RunSpans.NODE, completion.node()).put(RunSpans.TOKEN, completion.token())
                            .put(RunSpans.OUTCOME, outcome.name().toLowerCase(java.util.Locale.ROOT)).build(), null));
        }
        return outcome;
    }

    /**
     * The completion, or a permanent failure of its node when its output or error holds what PostgreSQL cannot store
     * (a NUL, a lone surrogate, a number out of range): such text in an event would stop the shard's event log, so it
     * never reaches one, and the node's failure policy decides what happens next.
     */
    private static Signal.Completion storable(Signal.Completion completion) {
        if (completion.succeeded()) {
            return StorableValues.problemInText(completion.outputText()).map(problem -> completion.failedWith(
                    unstorable("unstorable_output", "Expected an output PostgreSQL can store, but at '"
                            + problem.pointer() + "': " + problem.message()))).orElse(completion);
        }
        return StorableValues.problemInText(completion.errorJson()).map(problem -> completion.failedWith(
                unstorable("unstorable_error", "The worker's error could not be stored as sent (at '"
                        + problem.pointer() + "': " + problem.message() + ")"))).orElse(completion);
    }

    private static String unstorable(String code, String message) {
        return new EventDataText().text("message", message).text("kind", "permanent").text("code", code).end();
    }

    /** A completion with its Lua step ready to run; {@code since}: when it began (for its span), null untraced. */
    record Prepared(Signal.Completion completion, int shard, IrNode node, StepArguments step, Instant since) {
    }

    private StepArguments step(RunPlan plan, IrNode node, Signal.Completion completion) {
        RedisKeys.RunKeys run = plan.keys();
        StepArguments step = StepArguments.routing(keys, plan);
        long now = clock.millis();
        LoopState loop = LoopState.of(redis, run, plan.workflow(), node, completion.token());
        String contextValue = completion.succeeded()
                ? payloads.contextValue(plan, completion.outputText(), completion.outputRef()) : "";
        NodeOutputs outputs = new NodeOutputs(redis, keys, payloads, plan, completion.node(), completion.outputText(),
                completion.outputRef());
        Routing routing = completion.succeeded()
                ? limited(node, router.route(plan.workflow().ir(), node.id(),
                new Inputs(plan, completion, outputs, loop)))
                : Routing.none();
        boolean succeeded = completion.succeeded() && !routing.failed();
        if (!succeeded) {
            return failureStep(step, plan, node, completion, loop, routing.failure(), now);
        }
        step.args(plan.runId().toString(), Long.toString(now), completion.token(), completion.node(),
                TokenPlaces.of(node.id(), loop.iteration()), plan.revision(), "completed", completion.node(),
                contextValue, completedEventData(completion, loop.iteration(), contextValue, routing));
        step.args(loop.field(routing.loop(), routing.loop() == Routing.LoopStep.AGAIN
                ? routing.emissions().get(0).iteration() : 0));
        step.args(Integer.toString(limits.maxHops()));
        emitter.add(step, plan, node.id(), completion.token(), routing.emissions(), outputs, now);
        return step;
    }

    /**
     * The step of a node's failure (no retry left): the run fails, or, when the node's {@code on_failure} is a path,
     * the node fails and the error goes on to the path's nodes as the node's output ({@code {"error": {...}}}).
     */
    private StepArguments failureStep(StepArguments step, RunPlan plan, IrNode node, Signal.Completion completion,
                                      LoopState loop, String routingFailure, long now) {
        String error = routingFailure == null ? completion.errorJson() : NodeFailed.routingError(routingFailure);
        boolean caught = node.onFailure() != null && node.onFailure().catches();
        String output = caught ? new EventDataText().raw("error", error).end() : null;
        String contextValue = caught ? payloads.contextValue(plan, output, null) : "";
        step.args(plan.runId().toString(), Long.toString(now), completion.token(), completion.node(),
                TokenPlaces.of(node.id(), loop.iteration()), plan.revision(), caught ? "caught" : "failed",
                completion.node(), contextValue, NodeFailed.data(loop.iteration(), completion.worker(),
                        completion.startedAt(), error, caught ? node.onFailure().nextNodes() : null));
        step.args(loop.field(Routing.LoopStep.UNCHANGED, 0));
        step.args(Integer.toString(limits.maxHops()));
        if (!caught) {
            step.args("0");
            return step;
        }
        NodeOutputs outputs = new NodeOutputs(redis, keys, payloads, plan, completion.node(), output, null);
        emitter.add(step, plan, node.id(), completion.token(), Router.emissions(plan.workflow().ir(),
                node.onFailure().nextNodes(), loop.iteration()), outputs, now);
        return step;
    }

    /** The routing, or a routing failure when it emits more than the node's own or the run-wide fan-out limit. */
    private Routing limited(IrNode node, Routing routing) {
        int emitted = routing.emissions().size();
        Integer own = node.limits() == null ? null : node.limits().maxFanOut();
        if (own != null && emitted > own) {
            return Routing.failed("Expected node '" + node.id() + "' to emit at most " + own + " tokens in one step "
                    + "(limits.max_fan_out), but it would emit " + emitted);
        }
        int max = limits.maxFanOut();
        return max > 0 && emitted > max ? Routing.failed("Expected at most " + max + " tokens from one completion "
                + "(tokenflow.run-limits.max-fan-out), but the node would emit " + emitted) : routing;
    }

    private static String completedEventData(Signal.Completion completion, int iteration, String contextValue,
                                             Routing routing) {
        return NodeCompleted.data(iteration, completion.worker(), completion.startedAt(), routing.emissions().isEmpty(),
                routing.decision() == null ? null : routing.decision().toString(), contextValue);
    }


    /** What the router may ask about one completion, read from Redis only when asked. */
    private final class Inputs implements RoutingInput {
        private final RunPlan plan;
        private final Signal.Completion completion;
        private final NodeOutputs outputs;
        private final LoopState loop;

        Inputs(RunPlan plan, Signal.Completion completion, NodeOutputs outputs, LoopState loop) {
            this.plan = plan;
            this.completion = completion;
            this.outputs = outputs;
            this.loop = loop;
        }

        @Override
        public int iteration() {
            return loop.iteration();
        }

        @Override
        public int loopPasses() {
            return loop.passes();
        }

        @Override
        public int loopEntry() {
            return loop.entry();
        }

        @Override
        public int nextIteration() {
            return RunMeta.lastIteration(redis.commands(), plan.keys()) + 1;
        }

        @Override
        public ConditionContext conditionContext(Set<String> contextNodes) {
            outputs.read(contextNodes);
            Map<String, JsonNode> nodeOutputs = new HashMap<>();
            for (String id : contextNodes) {
                JsonNode output = outputs.of(id);
                if (output != null) {
                    nodeOutputs.put(id, output);
                }
            }
            return new ConditionContext(outputs.own(), nodeOutputs, plan.input());
        }

        @Override
        public Optional<AgentDecision> agentDecision() {
            return Optional.ofNullable(completion.decision());
        }
    }
}
