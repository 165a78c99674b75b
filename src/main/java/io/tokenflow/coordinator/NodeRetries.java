package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.IrRetry;
import io.tokenflow.engine.replay.NodeRetrying;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tries a failed task again when its node's retry policy ({@link IrRetry}) says so: a transient failure with attempts
 * left gets its next attempt after the policy's backoff. The wait is durable: {@code retry-node.lua} keeps the token in
 * flight and puts a due time in the shard's due-times set, which {@link DueTimes} releases (no thread sleeps, and an
 * instance that dies during the wait loses nothing). The token id, and so the idempotency key, stays the same; the
 * attempt number travels in the task's {@code attempt} field.
 */
@Component
class NodeRetries {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final JsonMapper json;
    private final Clock clock;

    NodeRetries(RedisConnections redis, RedisKeys keys, LuaScripts scripts, JsonMapper json, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Whether a failed completion is taken care of: another attempt was scheduled, or it repeats the signal of an
     * attempt already retried. False: it is a failure for the run to route (permanent, not listed in
     * {@code retry_on}, attempts used up, or a node without retries).
     */
    boolean retried(RunPlan plan, IrNode node, Signal.Completion completion) {
        if (completion.succeeded() || !node.retries()) {
            return false;
        }
        RedisKeys.RunKeys run = plan.keys();
        Optional<KeptTask> kept = KeptTask.of(redis, json, plan, completion.token());
        if (kept.isEmpty()) {
            return false;
        }
        String place = kept.get().place();
        int attempt = completion.attempt() != null ? completion.attempt() : kept.get().attempt();
        JsonNode error = json.readTree(completion.errorJson());
        IrRetry policy = node.retry();
        if (!policy.retries(attempt, error.path("kind").asString(""), error.path("code").asString(null))) {
            return false;
        }
        long now = clock.millis();
        long delay = policy.delayMs(attempt, ThreadLocalRandom.current().nextDouble());
        String member = DueMember.retry(plan.runId(), completion.token(), node.id());
        String data = NodeRetrying.data(kept.get().iteration(), attempt, policy.maxAttempts(), delay,
                now + delay, completion.worker(), completion.errorJson());
        long reply = scripts.retryNode().run(redis.commands(), List.of(run.meta(), run.tokens(), run.retries(),
                        keys.dueTimes(plan.shard()), keys.activeRuns(plan.shard()), keys.eventsStream(plan.shard())),
                List.of(plan.runId().toString(), Long.toString(now), completion.token(), node.id(), place,
                        Integer.toString(attempt), Long.toString(now + delay), member, data));
        StepOutcome outcome = StepOutcome.of(reply);
        return outcome == StepOutcome.APPLIED || outcome == StepOutcome.DUPLICATE;
    }

}
