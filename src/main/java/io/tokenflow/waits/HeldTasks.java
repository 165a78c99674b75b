package io.tokenflow.waits;

import java.lang.management.ManagementFactory;
import java.time.Clock;
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

import io.tokenflow.coordinator.CoordinatorSettings;
import io.tokenflow.coordinator.RunReferences;
import io.tokenflow.coordinator.RunPlan;
import io.tokenflow.coordinator.RunPlans;
import io.tokenflow.coordinator.StreamConsumer;
import io.tokenflow.engine.ir.IrCall;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.NodeWaiting;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

/**
 * Reads the task streams of the node types the engine holds itself ({@code wait:{N}}, {@code signal:{N}},
 * {@code workflow:{N}}) as their consumer group, like a worker would, and holds each token ({@code hold-wait.lua}):
 * due in the shard's wait due times (a timer, a signal's timeout) and, for a signal, in the index of its name and
 * correlation key; a workflow node's token once its child run started ({@link ChildRuns}). No thread waits:
 * {@link WaitDueTimes}, {@link SignalDelivery} and {@link ChildEndings} take the tokens out. Runs with the
 * coordinator role. A {@code wait.until} or {@code signal.key} that does not resolve to what it must fails the node,
 * permanently.
 */
@Component
class HeldTasks implements SmartLifecycle {

    static final String TIMER_TYPE = "wait";
    static final String SIGNAL_TYPE = "signal";
    static final String CALL_TYPE = IrCall.NODE_TYPE;
    private static final Log log = LogFactory.getLog(HeldTasks.class);

    private final CoordinatorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final RunReferences references;
    private final HeldTokens held;
    private final ChildRuns calls;
    private final Clock clock;
    private final List<StreamConsumer> consumers = new ArrayList<>();

    HeldTasks(CoordinatorSettings settings, RedisConnections redis, RedisKeys keys, RunPlans plans,
              RunReferences references, HeldTokens held, ChildRuns calls, Clock clock) {
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.references = references;
        this.held = held;
        this.calls = calls;
        this.clock = clock;
    }

    private List<StreamMessage<String, String>> handle(List<StreamMessage<String, String>> batch,
                                                       DedicatedConnection connection) {
        List<StreamMessage<String, String>> handled = new ArrayList<>();
        for (StreamMessage<String, String> message : batch) {
            try {
                hold(message);
                handled.add(message);
            } catch (RuntimeException e) {
                log.warn("Could not hold task " + message.getId() + " of " + message.getStream()
                        + "; it stays pending and is taken again", e);
            }
        }
        return handled;
    }

    /** Holds one task; returns normally when the entry may be acknowledged. */
    void hold(StreamMessage<String, String> message) {
        Map<String, String> fields = message.getBody();
        String token = fields.get("token");
        String nodeId = fields.get("node");
        UUID run;
        try {
            run = UUID.fromString(fields.getOrDefault("run", ""));
        } catch (IllegalArgumentException e) {
            log.warn("Dropped task " + message.getId() + " of " + message.getStream() + ": no run id in " + fields);
            return;
        }
        Optional<RunPlan> plan = plans.find(run);
        IrNode node = plan.map(found -> found.workflow().node(nodeId)).orElse(null);
        if (token == null || node == null || !node.held()) {
            log.debug("Dropped task " + message.getId() + " of " + message.getStream() + ": its run or node is gone");
            return;
        }
        int iteration = Integer.parseInt(fields.getOrDefault("iteration", "0"));
        long emittedAt = Long.parseLong(fields.getOrDefault("emitted_at", Long.toString(clock.millis())));
        if (node.timer() != null) {
            holdTimer(plan.get(), node, token, iteration, emittedAt, fields);
        } else if (node.signal() != null) {
            holdSignal(plan.get(), node, token, iteration, emittedAt, fields);
        } else {
            calls.call(plan.get(), node, token, iteration, fields);
        }
    }

    private void holdTimer(RunPlan plan, IrNode node, String token, int iteration, long emittedAt,
                           Map<String, String> fields) {
        JsonNode resolved = node.timer().durationMs() != null ? null
                : references.resolve(plan, node.timer().until());
        Long until = resolved == null ? Long.valueOf(emittedAt + node.timer().durationMs()) : instant(resolved);
        if (until == null) {
            held.fail(plan, node.id(), token, HeldTokens.WORKER_TIMER, "invalid_wait", "Expected wait.until "
                    + node.timer().until() + " to give an ISO-8601 instant with its offset, but it gave " + resolved);
            return;
        }
        Wait wait = new Wait(node.id(), NodeWaiting.TIMER, iteration, fields.get("input"), fields.get("input_ref"),
                until, null, null, null);
        held.hold(plan, token, wait, NodeWaiting.data(iteration, NodeWaiting.TIMER, until, null, null));
    }

    private void holdSignal(RunPlan plan, IrNode node, String token, int iteration, long emittedAt,
                            Map<String, String> fields) {
        JsonNode key = references.resolve(plan, node.signal().key());
        if (!(key.isString() || key.isNumber() || key.isBoolean()) || key.asString().isEmpty()) {
            held.fail(plan, node.id(), token, HeldTokens.WORKER_SIGNAL, "invalid_signal_key", "Expected signal.key "
                    + node.signal().key() + " to give a text, a number or a boolean, but it gave " + key);
            return;
        }
        Long until = node.signal().timeoutMs() == null ? null : emittedAt + node.signal().timeoutMs();
        Wait wait = new Wait(node.id(), NodeWaiting.SIGNAL, iteration, fields.get("input"), fields.get("input_ref"),
                until, node.signal().name(), key.asString(), null);
        held.hold(plan, token, wait,
                NodeWaiting.data(iteration, NodeWaiting.SIGNAL, until, wait.signal(), wait.key()));
    }

    private static Long instant(JsonNode value) {
        if (!value.isString()) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(value.asString()).toInstant().toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || !consumers.isEmpty()) {
            return;
        }
        String instance = ManagementFactory.getRuntimeMXBean().getName().replace('@', '-');
        for (String type : List.of(TIMER_TYPE, SIGNAL_TYPE, CALL_TYPE)) {
            List<String> streams = IntStream.range(0, keys.shards()).mapToObj(shard -> keys.taskStream(type, shard))
                    .toList();
            StreamConsumer consumer = new StreamConsumer(redis, streams,
                    keys.workerGroup(type), "engine-" + instance, 1, settings.batchSize(), settings.block(),
                    settings.claimIdle(), settings.claimInterval(), this::handle);
            consumers.add(consumer);
            consumer.start("tokenflow-held-" + type);
        }
    }

    @Override
    public synchronized void stop() {
        consumers.forEach(StreamConsumer::stop);
        consumers.clear();
    }

    @Override
    public synchronized boolean isRunning() {
        return !consumers.isEmpty();
    }
}
