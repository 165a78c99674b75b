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
import io.tokenflow.engine.replay.ResumePoint;
import io.tokenflow.engine.replay.RunResumed;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.engine.replay.TokenEmitted;
import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

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
        StepArguments step = StepArguments.routing(keys, plan);
        step.args(runId.toString(), Long.toString(now), Long.toString(point.failedSeq()),
                started.workflowId().toString(), Integer.toString(started.workflowVersion()), plan.revision(),
                payloads.write(started.inputs()), Long.toString(started.at().toEpochMilli()),
                Long.toString(point.hops()),
                RunResumed.data(by, point.failedSeq(), redone));
        step.args(Integer.toString(point.context().size()));
        point.context().forEach((node, output) -> step.args(node, payloads.write(output)));
        step.args(Integer.toString(point.loops().size()));
        point.loops().forEach((node, pass) -> step.args(node, LoopState.value(pass.passes(), pass.entry())));
        step.args(Integer.toString(point.lastIteration()));
        addHopCounts(step, plan, point);
        addArrivals(step, point.arrivals());
        step.args(Integer.toString(point.redo().size()));
        for (ResumePoint.Redo redo : point.redo()) {
            addRedo(step, plan, point, redo, redone.get(redo.token()), now);
        }
        step.args(plan.workflow().ir().deadline() == null ? "" : Long.toString(plan.workflow().ir().deadline().ms()));
        StepOutcome outcome = StepOutcome.of(scripts.resumeRun().run(redis.commands(), step.keys(), step.args()));
        if (outcome != StepOutcome.APPLIED) {
            plans.evict(runId);
        }
        return outcome;
    }

    /** The tokens that reached each node with a hop limit, so that the limit goes on counting where it was. */
    private static void addHopCounts(StepArguments step, RunPlan plan, ResumePoint point) {
        List<String> counts = new ArrayList<>();
        point.reached().forEach((node, reached) -> {
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
        IrNode node = plan.workflow().node(redo.node());
        if (node == null) {
            throw new IllegalArgumentException("Expected node '" + redo.node() + "' in the run's workflow (revision "
                    + plan.revision() + ") to do its work again, but it has no such node");
        }
        Payloads.TaskInput input = inputOf(plan, point, redo, node);
        String emitted = TokenEmitted.data(redo.from(), redo.parent(), redo.iteration(), false);
        String place = TokenPlaces.of(node.id(), redo.iteration());
        if (node.human() != null) {
            step.args("human", token, node.id(), place, emitted,
                    TokenEmitter.approvalId(plan.runId(), token).toString(), emitter.approvalRequest(plan, node, token, redo.iteration(), input, now));
            return;
        }
        TaskEntry entry = new TaskEntry(token, plan.runId(), node.id(), node.worker(), redo.iteration(), 1,
                input.inline(), input.reference(), plan.workflow().configs().get(node.id()), now, redo.from());
        List<String> fields = entry.fields();
        int stream = step.key(keys.taskStream(node.worker(), plan.shard()));
        step.args(node.taskKind(), token, node.id(), place, emitted, Integer.toString(stream),
                Integer.toString(fields.size()));
        step.args(fields);
    }

    /** The input the token had: made again from the run's input and the outputs the event log holds. */
    private Payloads.TaskInput inputOf(RunPlan plan, ResumePoint point, ResumePoint.Redo redo, IrNode node) {
        JsonNode own = redo.source() == ResumePoint.Source.CHILD ? point.outputs().get(redo.parent()) : null;
        JsonNode mapping = node.inputMapping();
        if (mapping != null) {
            return payloads.taskInput(InputResolver.resolve(mapping, plan.input(), id -> redo.source()
                    == ResumePoint.Source.ENTRY ? null : id.equals(redo.from()) && own != null ? resolved(own)
                    : resolved(point.context().get(id))));
        }
        return switch (redo.source()) {
            case ENTRY -> payloads.taskInput(plan.input());
            case JOIN -> {
                Map<String, JsonNode> merged = new LinkedHashMap<>();
                node.dependencies().forEach(dependency -> merged.put(dependency,
                        resolved(point.context().get(dependency))));
                yield payloads.taskInput(InputResolver.merge(merged));
            }
            case CHILD -> {
                String reference = NodeExecution.referenceIn(own);
                yield reference != null ? new Payloads.TaskInput(null, reference) : payloads.taskInput(own);
            }
        };
    }

    /** An output as the context keeps it, loaded from CAS when it is a reference. */
    private JsonNode resolved(JsonNode stored) {
        return stored == null ? null : payloads.fromContext(payloads.write(stored));
    }
}
