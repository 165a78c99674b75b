package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.NodeDiscarded;
import io.tokenflow.engine.replay.NodeParked;
import io.tokenflow.engine.replay.NodeReprocessed;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dead-letter queue's moves on a run's Redis state: parking a task whose node's {@code on_failure} is {@code dlq}
 * once no retry is left ({@code park-node.lua}: the token stays in flight, its task kept), sending a parked task to
 * its workers again ({@code reprocess-parked.lua}) and failing the run with it ({@code discard-parked.lua}). Each is
 * an event; the supervisor keeps the {@code dlq} rows from them.
 */
@Component
public class DeadLetters {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final JsonMapper json;
    private final Clock clock;

    DeadLetters(RedisConnections redis, RedisKeys keys, LuaScripts scripts, JsonMapper json, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.json = json;
        this.clock = clock;
    }

    /** What a reprocess or a discard did. */
    public enum Outcome { DONE, NOT_PARKED, NOT_RUNNING }

    /** Whether a failed completion (with no retry left) was parked, or repeats one already parked. */
    boolean parked(RunPlan plan, IrNode node, Signal.Completion completion) {
        if (completion.succeeded() || node.onFailure() == null || !node.onFailure().parks()) {
            return false;
        }
        RedisKeys.RunKeys run = plan.keys();
        Optional<KeptTask> kept = KeptTask.of(redis, json, plan, completion.token());
        if (kept.isEmpty()) {
            return false;
        }
        String place = kept.get().place();
        Map<String, String> task = kept.get().fields();
        String dlqId = UUID.randomUUID().toString();
        String data = NodeParked.data(kept.get().iteration(), dlqId, node.nodeType(), kept.get().attempt(),
                completion.errorJson(), completion.worker(), task.get("input"), task.get("input_ref"));
        long reply = scripts.parkNode().run(redis.commands(), List.of(run.meta(), run.tokens(), run.retries(),
                        keys.eventsStream(plan.shard()), keys.dueTimes(plan.shard())),
                List.of(plan.runId().toString(), Long.toString(clock.millis()), completion.token(), node.id(), place,
                        dlqId, data));
        StepOutcome outcome = StepOutcome.of(reply);
        return outcome == StepOutcome.APPLIED || outcome == StepOutcome.DUPLICATE;
    }

    /**
     * Sends a parked task to its node's workers again, as attempt 1.
     *
     * @param input the input to send instead (JSON text), or {@code null} for the one it had
     */
    public Outcome reprocess(RunPlan plan, String token, String node, String dlqId, String input, String by) {
        RedisKeys.RunKeys run = plan.keys();
        String place = redis.commands().hget(run.tokens(), token);
        IrNode irNode = plan.workflow().node(node);
        if (place == null || irNode == null || irNode.worker() == null) {
            return Outcome.NOT_PARKED;
        }
        String data = NodeReprocessed.data(TokenPlaces.iterationOf(place), dlqId, by, input);
        long reply = scripts.reprocessParked().run(redis.commands(), List.of(run.meta(), run.tokens(), run.retries(),
                        keys.activeRuns(plan.shard()), keys.eventsStream(plan.shard()),
                        keys.taskStream(irNode.worker(), plan.shard()), keys.dueTimes(plan.shard())),
                List.of(plan.runId().toString(), Long.toString(clock.millis()), token, node, place, dlqId,
                        input == null ? "" : input, data, irNode.timeoutMs() == null ? "" : irNode.timeoutMs().toString()));
        return outcome(reply);
    }

    /** Fails the run of a parked task. */
    public Outcome discard(RunPlan plan, String token, String node, String dlqId, String by) {
        String place = redis.commands().hget(plan.keys().tokens(), token);
        StepArguments step = StepArguments.routing(keys, plan);
        step.args(plan.runId().toString(), Long.toString(clock.millis()), token, node, dlqId,
                NodeDiscarded.data(TokenPlaces.iterationOf(place), dlqId, by),
                "Dead-letter entry " + dlqId + " of node " + node + " was discarded by " + by);
        return outcome(scripts.discardParked().run(redis.commands(), step.keys(), step.args()));
    }

    private static Outcome outcome(long reply) {
        return switch (StepOutcome.of(reply)) {
            case APPLIED -> Outcome.DONE;
            case NOT_RUNNING, UNKNOWN_RUN -> Outcome.NOT_RUNNING;
            default -> Outcome.NOT_PARKED;
        };
    }

}
