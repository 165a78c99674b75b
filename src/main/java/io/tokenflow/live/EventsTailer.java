package io.tokenflow.live;

import java.util.ArrayList;
import java.util.List;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.json.JsonMapper;

/** Runs one {@link ShardTail} per shard, each on its own thread and Redis connection (reads block). */
@Component
class EventsTailer implements SmartLifecycle {

    private final LiveSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LiveUpdates updates;
    private final JsonMapper json;
    private final List<ShardTail> tails = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    EventsTailer(LiveSettings settings, RedisConnections redis, RedisKeys keys, LiveUpdates updates, JsonMapper json) {
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.updates = updates;
        this.json = json;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || !threads.isEmpty()) {
            return;
        }
        for (int shard = 0; shard < keys.shards(); shard++) {
            ShardTail tail = new ShardTail(redis.dedicated(settings.block()).sync(), keys.eventsStream(shard), settings,
                    json, updates::accept, updates::watched);
            Thread thread = new Thread(tail, "live-tail-" + shard);
            thread.setDaemon(true);
            tails.add(tail);
            threads.add(thread);
            thread.start();
        }
    }

    @Override
    public synchronized void stop() {
        tails.forEach(ShardTail::stop);
        for (Thread thread : threads) {
            try {
                thread.join(settings.block().toMillis() + 5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        tails.clear();
        threads.clear();
    }

    @Override
    public synchronized boolean isRunning() {
        return !threads.isEmpty();
    }
}
