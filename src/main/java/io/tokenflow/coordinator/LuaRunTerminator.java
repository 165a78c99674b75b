package io.tokenflow.coordinator;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.RunCancelled;
import io.tokenflow.engine.replay.RunFailed;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/** Ends runs through {@code end-run.lua}: tokens dropped, counter reconciled to 0, the ending an event. */
@Component
class LuaRunTerminator implements RunTerminator {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final Clock clock;

    LuaRunTerminator(RedisConnections redis, RedisKeys keys, LuaScripts scripts, Payloads payloads, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.payloads = payloads;
        this.clock = clock;
    }

    @Override
    public boolean failIdle(UUID runId, Instant idleSince, String reason) {
        return end(runId, "FAILED", RunFailed.data(reason), idleSince);
    }

    @Override
    public boolean fail(UUID runId, String reason) {
        return end(runId, "FAILED", RunFailed.data(reason), null);
    }

    @Override
    public boolean cancel(UUID runId, String by) {
        return end(runId, "CANCELLED", RunCancelled.data(by), null);
    }

    /** @param idleSince end the run only if it has been idle since then (end-run.lua's ARGV[6]); null: end it now */
    private boolean end(UUID runId, String status, String data, Instant idleSince) {
        int shard = keys.shardOf(runId);
        RedisKeys.RunKeys run = keys.run(runId, shard);
        List<String> args = new ArrayList<>(List.of(runId.toString(), Long.toString(clock.millis()), status, data,
                keys.runsEndedChannel()));
        if (idleSince != null) {
            args.add(Long.toString(idleSince.toEpochMilli()));
        }
        long reply = scripts.endRun().run(redis.commands(),
                List.of(run.meta(), run.counter(), run.tokens(), run.joins(), keys.activeRuns(shard),
                        keys.eventsStream(shard), run.loops(), run.approvals(), run.retries(), run.waits(),
                        run.maps()),
                args);
        return StepOutcome.of(reply) == StepOutcome.APPLIED;
    }
}
