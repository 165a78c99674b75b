package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.List;

import org.springframework.stereotype.Component;

import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Records a worker's start of slow work as {@code node.started} ({@code mark-started.lua}): the run page shows the node
 * running, and the run counts as active. A heartbeat ({@code heartbeat.lua}) keeps the run active while long work goes
 * on. Both start the node's {@code timeout_s} again. A start reported after the token's completion, or for a run that ended, is
 * ignored; one for an unknown run or a token never sent to that node is refused and recorded.
 */
@Component
class NodeStarts {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final RejectedSignals rejected;
    private final RunPlans plans;
    private final Clock clock;

    NodeStarts(RedisConnections redis, RedisKeys keys, LuaScripts scripts, RejectedSignals rejected, RunPlans plans,
               Clock clock) {
        this.plans = plans;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.rejected = rejected;
        this.clock = clock;
    }

    StepOutcome record(Signal.Started started, int shard) {
        int runShard = keys.shardOf(started.run());
        RedisKeys.RunKeys run = keys.run(started.run(), runShard);
        long now = clock.millis();
        String timeoutAt = timeoutAt(started, now);
        StepOutcome outcome = started.heartbeat()
                ? StepOutcome.of(scripts.heartbeat().run(redis.commands(), List.of(run.meta(), run.tokens(),
                        keys.activeRuns(runShard), keys.dueTimes(runShard)), List.of(started.run().toString(),
                        Long.toString(now), started.token(), started.node(), timeoutAt)))
                : StepOutcome.of(scripts.markStarted().run(redis.commands(), List.of(run.meta(), run.tokens(),
                        run.consumed(), keys.activeRuns(runShard), keys.eventsStream(runShard),
                        keys.dueTimes(runShard)), List.of(started.run().toString(), Long.toString(now),
                        started.token(), started.node(), started.worker(),
                        started.startedAt() == null ? "" : started.startedAt().toString(), timeoutAt)));
        if (outcome == StepOutcome.UNKNOWN_RUN) {
            rejected.record(shard, started, "Expected a running run " + started.run() + ", but it is unknown");
        } else if (outcome == StepOutcome.UNKNOWN_TOKEN) {
            rejected.record(shard, started, "Expected token " + started.token() + " to be in flight at node '"
                    + started.node() + "', but it never was");
        }
        return outcome;
    }

    /** When the token's node times out if the work goes on from now ('' when it has no timeout). */
    private String timeoutAt(Signal.Started started, long now) {
        Long timeout = plans.find(started.run()).map(plan -> plan.workflow().node(started.node()))
                .map(node -> node.timeoutMs()).orElse(null);
        return timeout == null ? "" : Long.toString(now + timeout);
    }
}
