package io.tokenflow.coordinator;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;

/**
 * Routes the completions of this instance's built-in workers in-process when it also hosts the coordinator, instead
 * of through the completions stream: the same signal checks, the same decision in Java and the same Lua step, sent
 * on the worker's own (pipelined) connection. It saves a stream entry, its read, acknowledgement and deletion, and a
 * hand-over between threads per hop. A worker acknowledges its token only after the step's reply, so a crash in
 * between leaves the token pending: it is claimed and run again, and the step absorbs the duplicate completion.
 * External workers, and instances without the coordinator role, use the completions stream (docs/worker-protocol.md).
 */
@Component
public class LocalCompletions {

    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(10);

    private final boolean enabled;
    private final CompletionRouter router;
    private final LuaScripts scripts;
    private final RedisConnections redis;
    private final Signals signals;

    LocalCompletions(CoordinatorSettings settings, CompletionRouter router, LuaScripts scripts,
                     RedisConnections redis, JsonMapper json) {
        this.enabled = settings.enabled() && settings.routeLocalCompletions();
        this.router = router;
        this.scripts = scripts;
        this.redis = redis;
        this.signals = new Signals(json);
    }

    /** Whether completions of this instance's workers are routed in-process. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Decides a completion signal (the fields a worker would add to the completions stream of {@code shard}) and
     * sends its Lua step on {@code connection} without flushing it; empty when the signal is not a well-formed
     * completion and must go through the stream (where it is refused and recorded).
     */
    public Optional<Sent> send(String entryId, int shard, Map<String, String> fields,
                                  RedisClusterAsyncCommands<String, String> connection) {
        if (!enabled) {
            throw new IllegalStateException("Expected in-process routing to be on (coordinator role and "
                    + "tokenflow.coordinator.route-local-completions), but it is off");
        }
        if (!(signals.parse(entryId, fields) instanceof Signal.Completion completion)) {
            return Optional.empty();
        }
        Optional<CompletionRouter.Prepared> prepared = router.prepare(completion, shard);
        return Optional.of(new Sent(prepared.orElse(null), prepared.map(step ->
                scripts.routeCompletion().send(connection, step.step().keys(), step.step().args())).orElse(null)));
    }

    /** A completion whose step was sent; {@link #settle} waits for its reply once the connection was flushed. */
    public final class Sent {
        private final CompletionRouter.Prepared prepared;
        private final RedisFuture<Long> reply;

        private Sent(CompletionRouter.Prepared prepared, RedisFuture<Long> reply) {
            this.prepared = prepared;
            this.reply = reply;
        }

        /**
         * Waits for the step's reply and settles it as the coordinator would (refusals recorded, a step decided on
         * stale facts decided again). Throws when the step did not run: the token must then stay pending.
         */
        public StepOutcome settle() {
            if (prepared == null) {
                return StepOutcome.UNKNOWN_RUN;
            }
            try {
                if (!reply.await(REPLY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("Expected the routing step of token "
                            + prepared.completion().token() + " to answer within " + REPLY_TIMEOUT
                            + ", but it did not");
                }
                return router.finish(prepared, scripts.routeCompletion().settle(reply, redis.commands(),
                        prepared.step().keys(), prepared.step().args()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while routing the completion of "
                        + prepared.completion().token(), e);
            }
        }
    }
}
