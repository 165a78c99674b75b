package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.JoinArrived;
import io.tokenflow.engine.replay.NodeParked;
import io.tokenflow.engine.replay.RecoveryPoint;
import io.tokenflow.engine.replay.ResumePoint;
import io.tokenflow.engine.replay.RunRecovered;
import io.tokenflow.engine.replay.RunResumed;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.engine.replay.TokenEmitted;
import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resumes a failed run from its {@link ResumePoint} in one atomic step ({@code resume-run.lua}): its Redis state
 * rebuilt as it was when it failed, and the work to do again emitted under new token ids with the inputs it had (each
 * made again the way {@link TokenEmitter}, {@link RunStarter} and {@link JoinDispatcher} made it, from the outputs
 * the event log holds). The run keeps its id; its events go on from the failure's seq.
 */
@Component
public class RunResumer {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final TokenEmitter emitter;
    private final Clock clock;

    RunResumer(RedisConnections redis, RedisKeys keys, RunPlans plans, LuaScripts scripts, Payloads payloads,
               TokenEmitter emitter, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.scripts = scripts;
        this.payloads = payloads;
        this.emitter = emitter;
        this.clock = clock;
    }

    /**
     * Resumes the run: {@link StepOutcome#APPLIED} when it runs again, {@link StepOutcome#NOT_RUNNING} when it is no
     * longer failed (resumed already), {@link StepOutcome#STALE_REVISION} when Redis holds events the point missed.
     *
     * @throws IllegalArgumentException when work to do again is at a node the run's workflow no longer has
     */
    public StepOutcome resume(UUID runId, ResumePoint point, String by) {
        RunStarted started = point.state().started();
        RunPlan plan = plans.planOf(runId, started.workflowId(), started.workflowVersion(), point.state().revision(),
                started.inputs());
        long now = clock.millis();
        Map<String, String> redone = new LinkedHashMap<>();
        point.redo().forEach(redo -> redone.put(redo.token(), redo.newToken(point.failedSeq())));
        StepArguments step = rebuilding(plan, started, point.failedSeq(), now, point.hops(),
                RunResumed.data(by, point.failedSeq(), redone), new RoutingState(point.context(), point.outputs(),
                        point.loops(), point.lastIteration(), point.reached()));
        addArrivals(step, point.arrivals());
        step.args(Integer.toString(point.redo().size()));
        for (ResumePoint.Redo redo : point.redo()) {
            addRedo(step, plan, point, redo, redone.get(redo.token()), now);
        }
        step.args(plan.workflow().ir().deadline() == null ? "" : Long.toString(plan.workflow().ir().deadline().ms()));
        return outcome(runId, scripts.resumeRun().run(redis.commands(), step.keys(), step.args()));
    }

    /**
     * Recovers a running run whose Redis state was lost, from its {@link RecoveryPoint} ({@code recover-run.lua}):
     * {@link StepOutcome#APPLIED} when its state was rebuilt and its tasks in flight sent again,
     * {@link StepOutcome#STALE_REVISION} when Redis holds the run at or after the point (nothing was lost).
     *
     * @param reason what was found of the run in Redis (recorded in {@code run.recovered})
     * @throws IllegalArgumentException when work in flight is at a node the run's workflow no longer has
     */
    public StepOutcome recover(UUID runId, RecoveryPoint point, String by, String reason) {
        RunStarted started = point.state().started();
        RunPlan plan = plans.planOf(runId, started.workflowId(), started.workflowVersion(), point.state().revision(),
                started.inputs());
        long now = clock.millis();
        RoutingState routing = new RoutingState(point.context(), point.outputs(), point.loops(), point.lastIteration(),
                point.reached());
        List<String> resent = point.resend().stream().map(resend -> resend.task().token()).toList();
        StepArguments step = rebuilding(plan, started, point.lastSeq(), now, point.hops(),
                RunRecovered.data(by, point.lastSeq(), reason, resent), routing);
        step.args(Integer.toString(point.arrivals().size()));
        point.arrivals().forEach(arrival -> step.args(arrival.token(),
                TokenPlaces.of(arrival.node(), arrival.iteration()), arrival.field(), arrival.dependency()));
        step.args(Integer.toString(point.approvals().size()));
        point.approvals().forEach(approval -> {
            ObjectNode entry = JsonNodeFactory.instance.objectNode().put("node", approval.node())
                    .put("token", approval.token());
            entry.set("request", approval.request());
            step.args(approval.approvalId(), payloads.write(entry));
        });
        step.args(Integer.toString(point.parked().size()));
        for (RecoveryPoint.Parked kept : point.parked()) {
            NodeParked parked = kept.parked();
            TokenEmitted emission = kept.emission();
            IrNode node = nodeOf(plan, parked.node(), "keep its parked task");
            TaskEntry task = new TaskEntry(parked.token(), runId, node.id(), node.worker(), parked.iteration(),
                    parked.attempts(), parked.input() == null ? null : payloads.write(parked.input()),
                    parked.inputRef(), plan.workflow().configs().get(node.id()), emission.at().toEpochMilli(),
                    emission.from());
            step.args(parked.token(), TokenPlaces.of(node.id(), parked.iteration()), parked.dlqId(),
                    payloads.write(payloads.toJson(task.fields())));
        }
        step.args(Integer.toString(point.resend().size()));
        for (RecoveryPoint.Resend resend : point.resend()) {
            ResumePoint.Redo task = resend.task();
            IrNode node = nodeOf(plan, task.node(), "send its task again");
            Payloads.TaskInput input = resend.editedInput() != null ? payloads.taskInput(plan, resend.editedInput())
                    : inputOf(plan, routing, task, node);
            addTask(step, plan, node, new TaskEntry(task.token(), runId, node.id(), node.worker(), task.iteration(),
                    resend.attempt(), input.inline(), input.reference(), plan.workflow().configs().get(node.id()), now,
                    task.from()), TokenPlaces.of(node.id(), task.iteration()), null);
        }
        step.args(plan.workflow().ir().deadline() == null ? ""
                : Long.toString(point.runningSince().toEpochMilli() + plan.workflow().ir().deadline().ms()));
        return outcome(runId, scripts.recoverRun().run(redis.commands(), step.keys(), step.args()));
    }

    /** What a run's routing state held, as its event log tells it (see {@link ResumePoint}). */
    private record RoutingState(Map<String, JsonNode> context, Map<String, JsonNode> outputs,
                                Map<String, ResumePoint.LoopPass> loops, int lastIteration,
                                Map<String, Integer> reached) {
    }

    /** The arguments both rebuilding steps begin with: the run, its meta fields and its routing state. */
    private StepArguments rebuilding(RunPlan plan, RunStarted started, long seq, long now, long hops, String data,
                                     RoutingState routing) {
        StepArguments step = StepArguments.routing(keys, plan);
        step.args(plan.runId().toString(), Long.toString(now), Long.toString(seq), started.workflowId().toString(),
                Integer.toString(started.workflowVersion()), plan.revision(), payloads.write(started.inputs()),
                Long.toString(started.at().toEpochMilli()), Long.toString(hops), data);
        step.args(Integer.toString(routing.context().size()));
        routing.context().forEach((node, output) -> step.args(node, payloads.write(output)));
        step.args(Integer.toString(routing.loops().size()));
        routing.loops().forEach((node, pass) -> step.args(node, LoopState.value(pass.passes(), pass.entry())));
        step.args(Integer.toString(routing.lastIteration()));
        addHopCounts(step, plan, routing.reached());
        return step;
    }

    private StepOutcome outcome(UUID runId, long reply) {
        StepOutcome outcome = StepOutcome.of(reply);
        if (outcome != StepOutcome.APPLIED) {
            plans.evict(runId);
        }
        return outcome;
    }

    private static IrNode nodeOf(RunPlan plan, String id, String purpose) {
        IrNode node = plan.workflow().node(id);
        if (node == null) {
            throw new IllegalArgumentException("Expected node '" + id + "' in the run's workflow (revision "
                    + plan.revision() + ") to " + purpose + ", but it has no such node");
        }
        return node;
    }

    /** The tokens that reached each node with a hop limit, so that the limit goes on counting where it was. */
    private static void addHopCounts(StepArguments step, RunPlan plan, Map<String, Integer> reachedByNode) {
        List<String> counts = new ArrayList<>();
        reachedByNode.forEach((node, reached) -> {
            IrNode limited = plan.workflow().node(node);
            if (limited != null && limited.limits() != null && limited.limits().maxHops() != null) {
                counts.add(node);
                counts.add(Integer.toString(reached));
            }
        });
        step.args(Integer.toString(counts.size() / 2));
        step.args(counts);
    }

    private static void addArrivals(StepArguments step, List<ResumePoint.Arrival> arrivals) {
        step.args(Integer.toString(arrivals.size()));
        Map<String, Integer> arrived = new HashMap<>();
        for (ResumePoint.Arrival arrival : arrivals) {
            int count = arrived.merge(arrival.field(), 1, Integer::sum);
            step.args(arrival.token(), arrival.node(), TokenPlaces.of(arrival.node(), arrival.iteration()),
                    TokenEmitted.data(arrival.from(), arrival.parent(), arrival.iteration(), true), arrival.field(),
                    arrival.dependency(), JoinArrived.data(arrival.from(), arrival.iteration(), count,
                            arrival.expected()));
        }
    }

    private void addRedo(StepArguments step, RunPlan plan, ResumePoint point, ResumePoint.Redo redo, String token,
                         long now) {
        IrNode node = nodeOf(plan, redo.node(), "do its work again");
        Payloads.TaskInput input = inputOf(plan, new RoutingState(point.context(), point.outputs(), point.loops(),
                point.lastIteration(), point.reached()), redo, node);
        String emitted = TokenEmitted.data(redo.from(), redo.parent(), redo.iteration(), false);
        String place = TokenPlaces.of(node.id(), redo.iteration());
        if (node.human() != null) {
            step.args("human", token, node.id(), place, emitted,
                    TokenEmitter.approvalId(plan.runId(), token).toString(),
                    emitter.approvalRequest(plan, node, token, redo.iteration(), input, now));
            return;
        }
        addTask(step, plan, node, new TaskEntry(token, plan.runId(), node.id(), node.worker(), redo.iteration(), 1,
                input.inline(), input.reference(), plan.workflow().configs().get(node.id()), now, redo.from()), place,
                emitted);
    }

    /** A task for the step to put on its stream: kind, token, node, place, (token.emitted data,) stream, fields. */
    private void addTask(StepArguments step, RunPlan plan, IrNode node, TaskEntry entry, String place,
                         String emitted) {
        List<String> fields = entry.fields();
        int stream = step.key(keys.taskStream(node.worker(), plan.shard()));
        step.args(node.taskKind(), entry.token(), node.id(), place);
        if (emitted != null) {
            step.args(emitted);
        }
        step.args(Integer.toString(stream), Integer.toString(fields.size()));
        step.args(fields);
    }

    /** The input the token had: made again from the run's input and the outputs the event log holds. */
    private Payloads.TaskInput inputOf(RunPlan plan, RoutingState point, ResumePoint.Redo redo, IrNode node) {
        JsonNode own = redo.source() == ResumePoint.Source.CHILD ? point.outputs().get(redo.parent()) : null;
        JsonNode mapping = node.inputMapping();
        if (mapping != null) {
            return payloads.taskInput(plan, InputResolver.resolve(mapping, plan.input(), id -> redo.source()
                    == ResumePoint.Source.ENTRY ? null : id.equals(redo.from()) && own != null ? resolved(own)
                    : resolved(point.context().get(id))));
        }
        return switch (redo.source()) {
            case ENTRY -> payloads.taskInput(plan, plan.input());
            case JOIN -> {
                Map<String, JsonNode> merged = new LinkedHashMap<>();
                node.dependencies().forEach(dependency -> merged.put(dependency,
                        resolved(point.context().get(dependency))));
                yield payloads.taskInput(plan, InputResolver.merge(merged));
            }
            case CHILD -> {
                String reference = NodeExecution.referenceIn(own);
                yield reference != null ? new Payloads.TaskInput(null, reference) : payloads.taskInput(plan, own);
            }
        };
    }

    /** An output as the context keeps it, loaded from CAS when it is a reference. */
    private JsonNode resolved(JsonNode stored) {
        return stored == null ? null : payloads.fromContext(payloads.write(stored));
    }
}
