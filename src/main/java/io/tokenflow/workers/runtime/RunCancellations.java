package io.tokenflow.workers.runtime;

import java.util.UUID;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.WorkerSettings;

/**
 * Listens on the channel where ending steps announce cancelled runs ({@link RedisKeys#runsEndedChannel()}) and stops
 * their tasks running here ({@link RunningTasks}). Publish/subscribe loses a message sent while this instance is not
 * subscribed; a task that misses it finishes, and its result is ignored as that of an ended run.
 */
@Component
class RunCancellations implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RunCancellations.class);

    private final WorkerSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunningTasks running;
    private StatefulRedisPubSubConnection<String, String> connection;

    RunCancellations(WorkerSettings settings, RedisConnections redis, RedisKeys keys, RunningTasks running) {
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.running = running;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || connection != null) {
            return;
        }
        connection = redis.pubSub();
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String run) {
                try {
                    int stopped = running.cancel(UUID.fromString(run));
                    if (stopped > 0) {
                        log.info("Stopped {} running task(s) of ended run {}", stopped, run);
                    }
                } catch (IllegalArgumentException malformed) {
                    log.warn("Ignored a malformed run id on {}: {}", channel, run);
                }
            }
        });
        connection.sync().subscribe(keys.runsEndedChannel());
    }

    @Override
    public synchronized void stop() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return connection != null;
    }
}
