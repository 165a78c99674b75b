package io.tokenflow.coordinator;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;

/**
 * Switches a running run to a new revision of its workflow in one Lua step ({@code patch-run.lua}): only from the
 * revision the patch was made against, and only when no node the patch removes holds a token, a join arrival or a
 * pending approval. Tokens in flight stay valid; the coordinator routes with the new revision from its next step.
 */
@Component
public class RunPatches {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunMeta meta;
    private final LuaScripts scripts;
    private final RunPlans plans;
    private final Payloads payloads;
    private final java.time.Clock clock;

    RunPatches(RedisConnections redis, RedisKeys keys, RunMeta meta, LuaScripts scripts, RunPlans plans,
               Payloads payloads, java.time.Clock clock) {
        this.meta = meta;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.plans = plans;
        this.payloads = payloads;
        this.clock = clock;
    }

    /** The revision a running run routes with, or -1 when the run is not running. */
    public int currentRevision(UUID runId) {
        return meta.runningRevision(runId).orElse(-1);
    }

    /**
     * @param removed   the nodes the new revision no longer has
     * @param eventData the {@code run.patched} data (JSON object text)
     */
    public Outcome apply(UUID runId, int from, int to, Collection<String> removed, String eventData) {
        RedisKeys.RunKeys run = keys.run(runId);
        long reply = scripts.patchRun().run(redis.commands(),
                List.of(run.meta(), run.tokens(), run.joins(), run.approvals(), keys.eventsStream(run.shard())),
                List.of(runId.toString(), Long.toString(clock.millis()), Integer.toString(from), Integer.toString(to),
                        payloads.write(payloads.toJson(List.copyOf(removed))), eventData));
        plans.evict(runId);
        return switch ((int) reply) {
            case 1 -> Outcome.APPLIED;
            case -2, -4 -> Outcome.NOT_RUNNING;
            case -6 -> Outcome.STALE_REVISION;
            case -8 -> Outcome.REMOVES_LIVE_NODE;
            default -> throw new IllegalStateException("Expected a known reply from patch-run, but got " + reply);
        };
    }

    public enum Outcome { APPLIED, NOT_RUNNING, STALE_REVISION, REMOVES_LIVE_NODE }
}
