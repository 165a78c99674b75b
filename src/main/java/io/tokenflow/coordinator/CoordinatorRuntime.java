package io.tokenflow.coordinator;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the coordinator's consumer threads: each reads every shard's completions stream in the coordinators' consumer
 * group, routes each signal, then acknowledges and deletes what it handled. Entries left pending by a dead
 * coordinator are taken over after {@code claimIdle}.
 */
@Component
class CoordinatorRuntime implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(CoordinatorRuntime.class);

    private final CoordinatorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final CompletionRouter router;
    private final JoinDispatcher joins;
    private final RejectedSignals rejected;
    private final Signals signals;
    private final List<StreamConsumer> consumers = new ArrayList<>();
    private volatile boolean running;

    CoordinatorRuntime(CoordinatorSettings settings, RedisConnections redis, RedisKeys keys, CompletionRouter router,
                       JoinDispatcher joins, RejectedSignals rejected, JsonMapper json) {
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.router = router;
        this.joins = joins;
        this.rejected = rejected;
        this.signals = new Signals(json);
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
        for (int i = 0; i < settings.threads(); i++) {
            StreamConsumer consumer = new StreamConsumer(redis.dedicated(), streams, RedisKeys.COORDINATORS_GROUP,
                    "coordinator-" + instance + "-" + i, settings.batchSize(), settings.block(), settings.claimIdle(),
                    settings.claimInterval(), this::handle);
            consumers.add(consumer);
            consumer.start("tokenflow-coordinator-" + i);
        }
        running = true;
        log.info("Coordinator started: " + settings.threads() + " threads on " + streams);
    }

    /** Handles one entry; true when it may be acknowledged. */
    private boolean handle(int streamIndex, String entryId, java.util.Map<String, String> fields) {
        int shard = streamIndex;
        Signal signal = signals.parse(entryId, fields);
        if (signal instanceof Signal.Completion completion) {
            router.route(completion, shard);
        } else if (signal instanceof Signal.JoinReady join) {
            joins.dispatch(join);
        } else {
            rejected.record(shard, (Signal.Malformed) signal);
        }
        return true;
    }

    @Override
    public void stop() {
        consumers.forEach(StreamConsumer::stop);
        consumers.clear();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100;
    }
}
