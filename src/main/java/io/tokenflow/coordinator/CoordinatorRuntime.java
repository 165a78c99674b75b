package io.tokenflow.coordinator;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.signing.SignalVerifier;

/**
 * Runs the coordinator's consumer threads ({@code tokenflow.coordinator.threads}; spread over the shards on a
 * cluster, see {@link StreamConsumer}): they read the shards' completions streams in the coordinators' consumer group,
 * route each signal, then acknowledge and delete what they handled. Entries left pending by a dead coordinator are
 * taken over after {@code claimIdle}.
 */
@Component
class CoordinatorRuntime implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(CoordinatorRuntime.class);

    private final CoordinatorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final CompletionRouter router;
    private final JoinDispatcher joins;
    private final NodeStarts starts;
    private final RejectedSignals rejected;
    private final Signals signals;
    private final LuaScripts scripts;
    private final SignalVerifier verifier;
    private volatile StreamConsumer consumer;

    CoordinatorRuntime(CoordinatorSettings settings, RedisConnections redis, RedisKeys keys, CompletionRouter router,
                       JoinDispatcher joins, NodeStarts starts, RejectedSignals rejected, LuaScripts scripts,
                       JsonMapper json, SignalVerifier verifier) {
        this.verifier = verifier;
        this.starts = starts;
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.router = router;
        this.joins = joins;
        this.rejected = rejected;
        this.signals = new Signals(json);
        this.scripts = scripts;
    }

    @Override
    public void start() {
        if (!settings.enabled()) {
            return;
        }
        List<String> streams = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            streams.add(keys.completionsStream(shard));
        }
        String instance = ManagementFactory.getRuntimeMXBean().getName().replace('@', '-');
        consumer = new StreamConsumer(redis, streams, RedisKeys.COORDINATORS_GROUP, "coordinator-" + instance,
                settings.threads(), settings.batchSize(), settings.block(), settings.claimIdle(),
                settings.claimInterval(), this::handle);
        consumer.start("tokenflow-coordinator");
        log.info("Coordinator started: " + consumer.threads() + " threads on " + streams + "; this instance's built-in workers route their completions " + (settings.routeLocalCompletions() ? "in-process"
                : "through the completions stream") + " (tokenflow.coordinator.route-local-completions)");
    }

    /**
     * Handles a batch: completions are prepared in Java and their Lua steps sent pipelined on the consumer's own
     * connection, then settled in order; joins and malformed entries are handled one by one.
     */
    private List<StreamMessage<String, String>> handle(List<StreamMessage<String, String>> batch,
                                                       DedicatedConnection connection) {
        List<StreamMessage<String, String>> done = new ArrayList<>(batch.size());
        List<Sent> sent = new ArrayList<>(batch.size());
        RedisClusterAsyncCommands<String, String> async = connection.async();
        for (StreamMessage<String, String> message : batch) {
            int shard = shardOf(message.getStream());
            try {
                Optional<String> refusal = verifier.refusal(message.getId(), message.getBody());
                if (refusal.isPresent()) {
                    rejected.record(shard, new Signal.Malformed(message.getId(), message.getBody(), refusal.get()));
                    done.add(message);
                    continue;
                }
                Signal signal = signals.parse(message.getId(), message.getBody());
                if (signal instanceof Signal.Completion completion) {
                    router.prepare(completion, shard).ifPresentOrElse(
                            prepared -> sent.add(new Sent(message, prepared, scripts.routeCompletion().send(async,
                                    prepared.step().keys(), prepared.step().args()))),
                            () -> done.add(message));
                } else if (signal instanceof Signal.Started started) {
                    starts.record(started, shard);
                    done.add(message);
                } else if (signal instanceof Signal.JoinReady join) {
                    joins.dispatch(join);
                    done.add(message);
                } else {
                    rejected.record(shard, (Signal.Malformed) signal);
                    done.add(message);
                }
            } catch (RuntimeException e) {
                log.error("Completion entry " + message.getId() + " could not be handled; it stays pending", e);
            }
        }
        for (Sent step : sent) {
            settle(step, connection, done);
        }
        return done;
    }

    private void settle(Sent step, DedicatedConnection connection,
                        List<StreamMessage<String, String>> done) {
        try {
            long reply = scripts.routeCompletion().settle(step.reply(), connection.sync(),
                    step.prepared().step().keys(), step.prepared().step().args());
            router.finish(step.prepared(), reply);
            done.add(step.message());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("Routing completion " + step.message().getId() + " failed; it stays pending", e);
        }
    }

    private int shardOf(String stream) {
        for (int shard = 0; shard < keys.shards(); shard++) {
            if (keys.completionsStream(shard).equals(stream)) {
                return shard;
            }
        }
        throw new IllegalStateException("Expected a completions stream, but read " + stream);
    }

    /** A completion whose Lua step was sent and awaits its reply. */
    private record Sent(StreamMessage<String, String> message, CompletionRouter.Prepared prepared,
                        RedisFuture<Long> reply) {
    }

    @Override
    public void stop() {
        StreamConsumer stopping = consumer;
        if (stopping != null) {
            stopping.stop();
            consumer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return consumer != null;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100;
    }
}
