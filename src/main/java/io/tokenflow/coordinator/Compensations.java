package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrCompensator;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.replay.CompensationFailed;
import io.tokenflow.engine.replay.CompensationStarted;
import io.tokenflow.engine.replay.NodeCompleted;
import io.tokenflow.engine.replay.NodeFailed;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunReplay;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.engine.replay.RunState;
import io.tokenflow.engine.replay.TokenEmitted;
import io.tokenflow.engine.routing.TokenIds;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Compensation (a saga's rollback) of an ended run: the compensators of its completed nodes run one at a time, in
 * the reverse of the order the nodes completed in, each with the node's output as input. Started on request
 * ({@code POST /api/v1/runs/{id}/compensate}) or, when the workflow's {@code compensation.on} says so, once the run's
 * failure or cancellation is in the event log. The steps come from the event log alone, so a run whose Redis state
 * has gone is compensated too; the steps still to run wait in the run's meta hash ({@code comp}), and each
 * compensator's report sends the next one ({@code start-compensation.lua}, {@code compensate-step.lua}). Steps whose
 * compensator completed already are left out, so a compensation that failed, or that Redis lost while it ran, can be
 * started again from where it stopped.
 */
@Component
public class Compensations {

    private static final Log log = LogFactory.getLog(Compensations.class);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final RunEventLog eventLog;
    private final RunMeta meta;
    private final Clock clock;

    Compensations(RedisConnections redis, RedisKeys keys, RunPlans plans, LuaScripts scripts, Payloads payloads,
                  RunEventLog eventLog, RunMeta meta, Clock clock) {
        this.meta = meta;
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.scripts = scripts;
        this.payloads = payloads;
        this.eventLog = eventLog;
        this.clock = clock;
    }

    /** What starting a compensation came to. */
    public enum Start {
        /** the first compensator is on its way */
        STARTED,
        /** the run has not ended (or its ending is not in the event log yet) */
        NOT_ENDED,
        /** a compensation of the run is running */
        RUNNING,
        /** no completed node of the run has a compensator left to run */
        NOTHING_TO_DO,
        /** Redis holds events of the run the event log does not have yet: try again in a moment */
        NOT_LOGGED_YET
    }

    /**
     * Starts compensating an ended run.
     *
     * @param by     who asked ({@code system} for the workflow's {@code compensation.on})
     * @param reason {@code failure}, {@code cancel} or {@code request}
     * @return what happened, and the steps (compensated executions as {@code node#iteration}) when started
     */
    public Started start(UUID runId, String by, String reason) {
        List<RunEvent> events = eventLog.events(runId, Long.MAX_VALUE);
        RunState state = RunReplay.replay(events);
        if (!state.status().isFinished()) {
            return new Started(Start.NOT_ENDED, List.of());
        }
        // a compensation the log shows running goes on where Redis holds it; where Redis lost it, it starts again
        // with the steps whose compensator has not completed (the one in flight sent again under its own token id)
        if ("running".equals(state.compensation()) && meta.seq(runId, keys.shardOf(runId)).isPresent()) {
            return new Started(Start.RUNNING, List.of());
        }
        RunStarted started = state.started();
        RunPlan plan = plans.planOf(runId, started.workflowId(), started.workflowVersion(), state.revision(),
                started.inputs());
        List<Step> steps = steps(events, plan.workflow().ir());
        if (steps.isEmpty()) {
            return new Started(Start.NOTHING_TO_DO, List.of());
        }
        long now = clock.millis();
        Step first = steps.get(0);
        StepArguments step = new StepArguments(List.of(plan.keys().meta(), plan.keys().counter(), plan.keys().tokens(),
                keys.eventsStream(plan.shard()), plan.keys().retries(), keys.dueTimes(plan.shard())));
        step.key(keys.taskStream(compensator(plan, first).worker(), plan.shard()));
        List<String> places = steps.stream().map(Step::place).toList();
        step.args(runId.toString(), Long.toString(now), Long.toString(state.lastSeq()), state.status().name(),
                started.workflowId().toString(), Integer.toString(started.workflowVersion()), plan.revision(),
                payloads.write(started.inputs()), Long.toString(started.at().toEpochMilli()),
                CompensationStarted.data(by, reason, places), remaining(steps.subList(1, steps.size())));
        addTask(step, plan, first, now);
        StepOutcome outcome = StepOutcome.of(scripts.startCompensation().run(redis.commands(), step.keys(),
                step.args()));
        return switch (outcome) {
            case APPLIED -> new Started(Start.STARTED, places);
            case NOT_RUNNING -> new Started(Start.RUNNING, List.of());
            default -> new Started(Start.NOT_LOGGED_YET, List.of());
        };
    }

    /** The outcome of {@link #start}, with the steps it will run (as {@code node#iteration}) when started. */
    public record Started(Start outcome, List<String> steps) {
    }

    /**
     * Starts the compensation of runs that just ended, where their workflow says so ({@code compensation.on}); called
     * once their ending is in the event log. A failure here is logged, never thrown: it must not hold up the event log.
     */
    public void startDeclared(Map<UUID, RunStatus> ended) {
        ended.forEach((run, status) -> {
            String reason = status == RunStatus.FAILED ? WorkflowIr.ON_FAILURE
                    : status == RunStatus.CANCELLED ? WorkflowIr.ON_CANCEL : null;
            if (reason == null) {
                return;
            }
            try {
                Optional<RunPlan> plan = plans.find(run);
                if (plan.isPresent() && plan.get().workflow().ir().compensateOn().contains(reason)) {
                    Started started = start(run, "system", reason);
                    log.info("Compensation of run " + run + " after its " + reason + ": " + started.outcome() + " "
                            + started.steps());
                }
            } catch (RuntimeException e) {
                log.error("Expected to start the compensation of run " + run + " after its " + reason + ", but it "
                        + "failed; an operator can start it with POST /api/v1/runs/" + run + "/compensate", e);
            }
        });
    }

    /** A compensator reported: records it and sends the next one, or ends the compensation. */
    StepOutcome complete(RunPlan plan, Signal.Completion completion) {
        StepOutcome outcome = StepOutcome.LOOP_MOVED;
        for (int attempt = 0; attempt < 3 && outcome == StepOutcome.LOOP_MOVED; attempt++) {
            outcome = completeOnce(plan, completion);
        }
        return outcome;
    }

    private StepOutcome completeOnce(RunPlan plan, Signal.Completion completion) {
        Optional<String> steps = meta.compensationSteps(plan.runId(), plan.shard());
        if (steps.isEmpty()) {
            return StepOutcome.NOT_RUNNING;
        }
        String read = steps.get();
        List<Step> left = steps(read);
        long now = clock.millis();
        int iteration = TokenPlaces.iterationOf(redis.commands().hget(plan.keys().tokens(), completion.token()));
        StepArguments step = new StepArguments(List.of(plan.keys().meta(), plan.keys().counter(), plan.keys().tokens(),
                keys.eventsStream(plan.shard()), plan.keys().retries(), keys.dueTimes(plan.shard())));
        String error = completion.succeeded() ? null : completion.errorJson();
        step.args(completion.run().toString(), Long.toString(now), completion.token(), completion.node(),
                TokenPlaces.of(completion.node(), iteration), completion.succeeded() ? "completed" : "failed",
                completion.succeeded() ? NodeCompleted.data(iteration, completion.worker(), completion.startedAt(),
                        false, null, payloads.contextValue(plan, completion.outputText(), completion.outputRef()))
                        : NodeFailed.data(iteration, completion.worker(), completion.startedAt(), error, null),
                read, CompensationFailed.data("Compensator " + completion.node() + " failed; " + left.size()
                        + " step(s) after it not run"));
        if (completion.succeeded() && !left.isEmpty()) {
            step.key(keys.taskStream(compensator(plan, left.get(0)).worker(), plan.shard()));
            step.args(remaining(left.subList(1, left.size())));
            addTask(step, plan, left.get(0), now);
        }
        return StepOutcome.of(scripts.compensateStep().run(redis.commands(), step.keys(), step.args()));
    }

    /** The compensated executions still to undo, latest completion first. */
    static List<Step> steps(List<RunEvent> events, WorkflowIr ir) {
        Map<String, Step> todo = new LinkedHashMap<>();
        for (RunEvent event : events) {
            if (!(event instanceof NodeCompleted done)) {
                continue;
            }
            String compensated = IrCompensator.compensated(done.node());
            if (compensated != null) {
                todo.remove(compensated + "#" + done.iteration());
            } else if (ir.compensators().containsKey(done.node())) {
                String place = done.node() + "#" + done.iteration();
                todo.remove(place);
                todo.put(place, new Step(done.node(), done.iteration(), done.token(), done.output()));
            }
        }
        List<Step> steps = new ArrayList<>(todo.values());
        Collections.reverse(steps);
        return steps;
    }

    private void addTask(StepArguments step, RunPlan plan, Step compensated, long now) {
        IrCompensator compensator = compensator(plan, compensated);
        String node = IrCompensator.nodeOf(compensated.node());
        String token = TokenIds.compensation(compensated.token());
        String reference = NodeExecution.referenceIn(compensated.output());
        Payloads.TaskInput input = reference != null ? new Payloads.TaskInput(null, reference)
                : payloads.taskInput(plan, compensated.output());
        TaskEntry entry = new TaskEntry(token, plan.runId(), node, compensator.worker(), compensated.iteration(), 1,
                input.inline(), input.reference(), payloads.write(compensator.config()), now, compensated.node());
        List<String> fields = entry.fields();
        step.args("task", token, node, TokenPlaces.of(node, compensated.iteration()),
                TokenEmitted.data(compensated.node(), compensated.token(), compensated.iteration(), false),
                Integer.toString(fields.size()));
        step.args(fields);
    }

    private static IrCompensator compensator(RunPlan plan, Step step) {
        IrCompensator compensator = plan.workflow().ir().compensators().get(step.node());
        if (compensator == null) {
            throw new IllegalStateException("Expected a compensator of node '" + step.node() + "' in the run's "
                    + "workflow (revision " + plan.revision() + "), but it has none");
        }
        return compensator;
    }

    private String remaining(List<Step> steps) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (Step step : steps) {
            ObjectNode item = array.addObject().put("node", step.node()).put("iteration", step.iteration())
                    .put("token", step.token());
            item.set("output", step.output());
        }
        return payloads.write(array);
    }

    private List<Step> steps(String remaining) {
        List<Step> steps = new ArrayList<>();
        payloads.parse(remaining).forEach(item -> steps.add(new Step(item.get("node").asString(),
                item.get("iteration").asInt(), item.get("token").asString(), item.get("output"))));
        return steps;
    }

    /**
     * A completed execution to undo.
     *
     * @param output the node's output as the run's context keeps it (a {@code $ref} object when large)
     */
    record Step(String node, int iteration, String token, JsonNode output) {

        String place() {
            return node + "#" + iteration;
        }
    }
}
