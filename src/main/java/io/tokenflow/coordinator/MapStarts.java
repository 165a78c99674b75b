package io.tokenflow.coordinator;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;

import io.lettuce.core.StreamMessage;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrMap;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Reads the map stream ({@code wf.tasks.map:{N}}), where map nodes' tokens go, as its consumer group, and starts
 * each map ({@link MapItems#start}). An entry whose start failed stays pending and is taken again; a start that
 * comes twice is absorbed by {@code start-map.lua}. Runs with the coordinator role.
 */
@Component
class MapStarts implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(MapStarts.class);

    private final CoordinatorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final MapItems maps;
    private StreamConsumer consumer;

    MapStarts(CoordinatorSettings settings, RedisConnections redis, RedisKeys keys, RunPlans plans, MapItems maps) {
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.maps = maps;
    }

    private List<StreamMessage<String, String>> handle(List<StreamMessage<String, String>> batch,
                                                       DedicatedConnection connection) {
        List<StreamMessage<String, String>> handled = new ArrayList<>();
        for (StreamMessage<String, String> message : batch) {
            try {
                start(message.getBody());
                handled.add(message);
            } catch (RuntimeException e) {
                log.warn("Could not start the map of entry " + message.getId() + " of " + message.getStream()
                        + "; it stays pending and is taken again", e);
            }
        }
        return handled;
    }

    private void start(Map<String, String> task) {
        UUID run;
        try {
            run = UUID.fromString(task.getOrDefault("run", ""));
        } catch (IllegalArgumentException e) {
            log.warn("Dropped a map entry without a run id: " + task);
            return;
        }
        Optional<RunPlan> plan = plans.find(run);
        IrNode node = plan.map(found -> found.workflow().node(task.get("node"))).orElse(null);
        if (node == null || node.map() == null || task.get("token") == null) {
            log.debug("Dropped a map entry whose run or map node is gone: " + task);
            return;
        }
        maps.start(plan.get(), node, task);
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || consumer != null) {
            return;
        }
        String instance = ManagementFactory.getRuntimeMXBean().getName().replace('@', '-');
        List<String> streams = IntStream.range(0, keys.shards())
                .mapToObj(shard -> keys.taskStream(IrMap.ENGINE_WORKER, shard)).toList();
        consumer = new StreamConsumer(redis, streams,
                keys.workerGroup(IrMap.ENGINE_WORKER), "engine-" + instance, 1, settings.batchSize(), settings.block(),
                settings.claimIdle(), settings.claimInterval(), this::handle);
        consumer.start("tokenflow-map-starts");
    }

    @Override
    public synchronized void stop() {
        if (consumer != null) {
            consumer.stop();
            consumer = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return consumer != null;
    }
}
