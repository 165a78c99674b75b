package io.tokenflow.coordinator;

import java.util.Optional;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.EventDataText;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Acts on the time limits among the due times. A run past its workflow's {@code deadline} ends as the deadline says
 * (failed or cancelled, its running tasks stopped). A task that outlived its node's {@code timeout_s} fails: its due
 * member {@code timeout <run> <token> <node>} (set when the task was dispatched, moved on by the worker's started and
 * heartbeat signals, removed while the task waits for a retry or sits in the dead-letter queue) is routed as a
 * transient failure with code {@code timeout}, so the node's retry policy and {@code on_failure} apply as to any
 * failure. The worker may still finish: its completion is then applied if the token is still in flight (a retry
 * already out), or refused as a token no longer in flight.
 */
@Component
class Timeouts {

    private static final Log log = LogFactory.getLog(Timeouts.class);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final CompletionRouter router;
    private final RunTerminator terminator;

    Timeouts(RedisConnections redis, RedisKeys keys, RunPlans plans, CompletionRouter router,
             RunTerminator terminator) {
        this.terminator = terminator;
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.router = router;
    }

    /** Ends a run whose deadline passed ({@code deadline <run>}), as its workflow says; an ended run is left alone. */
    void endRun(int shard, String member, UUID runId) {
        if (redis.commands().zrem(keys.dueTimes(shard), member) == 0) {
            return;   // another coordinator took it
        }
        plans.find(runId).map(plan -> plan.workflow().ir().deadline()).ifPresent(deadline -> {
            boolean ended = deadline.cancels() ? terminator.cancel(runId, "deadline")
                    : terminator.fail(runId, "Expected the run to end within " + deadline.ms() / 1000.0 + " s (its "
                            + "deadline), but it was still running");
            if (ended) {
                log.info("Run " + runId + " passed its deadline and was " + (deadline.cancels() ? "cancelled"
                        : "failed"));
            }
        });
    }

    /** Fails the task of a {@code timeout <run> <token> <node>} member as a transient failure with code timeout. */
    void fire(int shard, String member, DueMember timeout) {
        if (redis.commands().zrem(keys.dueTimes(shard), member) == 0) {
            return;   // another coordinator took it
        }
        UUID runId = timeout.run();
        String token = timeout.token();
        Optional<RunPlan> plan = plans.find(runId);
        IrNode node = plan.map(found -> found.workflow().node(timeout.node())).orElse(null);
        if (node == null || node.timeoutMs() == null) {
            return;
        }
        RedisKeys.RunKeys run = plan.get().keys();
        String place = redis.commands().hget(run.tokens(), token);
        if (place == null || redis.commands().hexists(run.retries(), "p:" + token)) {
            return;   // completed (or dropped) meanwhile, or parked in the dead-letter queue
        }
        String error = new EventDataText().text("message", "Expected node '" + node.id() + "' to complete within "
                + node.timeoutMs() / 1000.0 + " s (timeout_s), but it did not").text("kind", "transient")
                .text("code", "timeout").end();
        log.info("Token " + token + " of run " + runId + " timed out at node " + node.id());
        router.route(new Signal.Completion("timeout", token, runId, node.id(), false, null, null, error, "", null,
                null, null), shard);
    }
}
