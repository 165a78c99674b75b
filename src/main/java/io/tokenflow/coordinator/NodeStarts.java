package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.List;

import org.springframework.stereotype.Component;

import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Records a worker's start of slow work as {@code node.started} ({@code mark-started.lua}): the run page shows the node
 * running, and the run counts as active. A start reported after the token's completion, or for a run that ended, is
 * ignored; one for an unknown run or a token never sent to that node is refused and recorded.
 */
@Component
class NodeStarts {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final RejectedSignals rejected;
    private final Clock clock;

    NodeStarts(RedisConnections redis, RedisKeys keys, LuaScripts scripts, RejectedSignals rejected,
               Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.rejected = rejected;
        this.clock = clock;
    }

    StepOutcome record(Signal.Started started, int shard) {
        int runShard = keys.shardOf(started.run());
        RedisKeys.RunKeys run = keys.run(started.run(), runShard);
        StepOutcome outcome = StepOutcome.of(scripts.markStarted().run(redis.commands(), List.of(run.meta(),
                        run.tokens(), run.consumed(), keys.activeRuns(runShard), keys.eventsStream(runShard)),
                List.of(started.run().toString(), Long.toString(clock.millis()), started.token(), started.node(),
                        started.worker(), started.startedAt() == null ? "" : started.startedAt().toString())));
        if (outcome == StepOutcome.UNKNOWN_RUN) {
            rejected.record(shard, started, "Expected a running run " + started.run() + ", but it is unknown");
        } else if (outcome == StepOutcome.UNKNOWN_TOKEN) {
            rejected.record(shard, started, "Expected token " + started.token() + " to be in flight at node '"
                    + started.node() + "', but it never was");
        }
        return outcome;
    }
}
