package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.lettuce.core.KeyValue;
import org.springframework.stereotype.Component;

import io.tokenflow.cas.CasStore;
import io.tokenflow.engine.ir.IrMap;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.EventDataText;
import io.tokenflow.engine.replay.MapItemCompleted;
import io.tokenflow.engine.replay.MapItemFailed;
import io.tokenflow.engine.replay.MapStarted;
import io.tokenflow.engine.routing.TokenIds;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.signing.EngineSignals;
import tools.jackson.databind.JsonNode;

/**
 * Runs a map node's elements: when its token arrives ({@link MapStarts}) the list is resolved, kept in CAS, and the
 * first {@code concurrency} elements go to the node's worker type as tasks of their own ({@code start-map.lua}); each
 * element's completion ({@code map-item.lua}) takes it out of flight and dispatches the element {@code concurrency}
 * places after it, so at most that many run and Redis holds the map's state and its running elements only, never the
 * list or the outputs (those are in CAS and the event log). The last element's step appends {@code map.items.done};
 * the supervisor then completes the node with the outputs in order ({@code supervisor.MapResults}).
 * An element's failure is first its node's retry policy's; with no retry left it fails the run (the map node's
 * failure, naming the element), or with an {@code on_failure} path stands in the list as {@code {"error": …}}.
 */
@Component
class MapItems {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final CasStore cas;
    private final NodeRetries retries;
    private final RunReferences references;
    private final Clock clock;
    private final EngineSignals signals;
    /** Lists by their CAS reference: the next element's input is read here, not from PostgreSQL each time. */
    private final Cache<String, JsonNode> lists = Caffeine.newBuilder().maximumSize(64).build();

    MapItems(RedisConnections redis, RedisKeys keys, LuaScripts scripts, Payloads payloads, CasStore cas,
             NodeRetries retries, RunReferences references, Clock clock, EngineSignals signals) {
        this.signals = signals;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.payloads = payloads;
        this.cas = cas;
        this.retries = retries;
        this.references = references;
        this.clock = clock;
    }

    /** Starts the map of a map node's token (the fields of its task on the map stream). */
    void start(RunPlan plan, IrNode node, Map<String, String> task) {
        String token = task.get("token");
        int iteration = Integer.parseInt(task.getOrDefault("iteration", "0"));
        JsonNode items = references.resolve(plan, node.map().items());
        if (!items.isArray()) {
            failMap(plan, node, token, "invalid_map_items", "Expected map.items " + node.map().items() + " to give "
                    + "a list, but it gave " + abbreviated(items));
            return;
        }
        if (items.size() > node.map().maxItems()) {
            failMap(plan, node, token, "too_many_items", "Expected at most " + node.map().maxItems() + " elements "
                    + "(map.max_items), but map.items gave " + items.size());
            return;
        }
        if (items.isEmpty()) {
            post(plan, Map.of("token", token, "run", plan.runId().toString(), "node", node.id(), "status", "completed",
                    "output", "[]", "worker", IrMap.ENGINE_WORKER));
            return;
        }
        String listRef = cas.putJson(payloads.tenantOf(plan), items);
        lists.put(listRef, items);
        String place = TokenPlaces.of(node.id(), iteration);
        List<String> args = new ArrayList<>(List.of(plan.runId().toString(), Long.toString(clock.millis()), token,
                node.id(), place, Integer.toString(items.size()),
                MapStarted.data(iteration, items.size(), node.map().concurrency(), listRef), listRef));
        int first = Math.min(node.map().concurrency(), items.size());
        args.add(Integer.toString(first));
        for (int index = 0; index < first; index++) {
            addElement(args, plan, node, token, place, iteration, index, items.get(index), task.get("from"));
        }
        RedisKeys.RunKeys run = plan.keys();
        scripts.startMap().run(redis.commands(), List.of(run.meta(), run.tokens(), run.maps(), run.retries(),
                keys.dueTimes(plan.shard()), keys.eventsStream(plan.shard()),
                keys.taskStream(node.taskWorker(), plan.shard())), args);
    }

    /**
     * Handles the completion of a map node's token when it is one of its elements' (in flight at an element's
     * place); false when it is not an element's (the map node's own completion, routed as any other).
     */
    boolean completed(RunPlan plan, IrNode node, Signal.Completion completion) {
        String place = redis.commands().hget(plan.keys().tokens(), completion.token());
        int index = TokenPlaces.elementOf(place);
        if (index < 0) {
            return false;
        }
        if (!completion.succeeded() && retries.retried(plan, node, completion)) {
            return true;
        }
        String mapPlace = place.substring(0, place.lastIndexOf('@'));
        List<KeyValue<String, String>> state = redis.commands().hmget(plan.keys().maps(), mapPlace + "|total",
                mapPlace + "|items", mapPlace + "|parent");
        if (!state.get(0).hasValue()) {
            return true;   // the map is done or gone (its run ended): a late or repeated signal
        }
        String parent = state.get(2).getValue();
        boolean continues = completion.succeeded() || node.onFailure() != null && node.onFailure().catches();
        if (!continues) {
            failMap(plan, node, parent, "map_item_failed", "Element " + index + " of the map failed: "
                    + payloads.parse(completion.errorJson()).path("message").asString(""));
            return true;
        }
        int iteration = TokenPlaces.iterationOf(place);
        int total = Integer.parseInt(state.get(0).getValue());
        int next = index + node.map().concurrency();
        List<String> args = new ArrayList<>(List.of(plan.runId().toString(), Long.toString(clock.millis()),
                completion.token(), node.id(), place, mapPlace, completion.succeeded() ? "completed" : "failed",
                completion.succeeded()
                        ? MapItemCompleted.data(iteration, index,
                        payloads.contextValue(plan, completion.outputText(), completion.outputRef()),
                        completion.worker())
                        : MapItemFailed.data(iteration, index, completion.errorJson(), completion.worker()),
                Integer.toString(iteration), next < total ? "1" : "0"));
        if (next < total) {
            JsonNode items = lists.get(state.get(1).getValue(), cas::getJson);
            addElement(args, plan, node, parent, mapPlace, iteration, next, items.get(next), node.id());
        }
        RedisKeys.RunKeys run = plan.keys();
        scripts.mapItem().run(redis.commands(), List.of(run.meta(), run.tokens(), run.maps(), run.retries(),
                keys.dueTimes(plan.shard()), keys.eventsStream(plan.shard()),
                keys.taskStream(node.taskWorker(), plan.shard()), keys.activeRuns(plan.shard())), args);
        return true;
    }

    /** An element's task for a Lua step: kind, token, place, field count, fields. */
    private void addElement(List<String> args, RunPlan plan, IrNode node, String parent, String mapPlace,
                            int iteration, int index, JsonNode item, String from) {
        Payloads.TaskInput input = payloads.taskInput(plan, item);
        TaskEntry task = new TaskEntry(TokenIds.element(parent, index), plan.runId(), node.id(), node.taskWorker(),
                iteration, 1, input.inline(), input.reference(), plan.workflow().configs().get(node.id()),
                clock.millis(), from);
        List<String> fields = task.fields(parent);
        args.add(node.workTaskKind());
        args.add(task.token());
        args.add(TokenPlaces.element(mapPlace, index));
        args.add(Integer.toString(fields.size()));
        args.addAll(fields);
    }

    /** The map node fails, permanently: its failure is routed as any node's (its error path, or the run fails). */
    private void failMap(RunPlan plan, IrNode node, String token, String code, String message) {
        post(plan, Map.of("token", token, "run", plan.runId().toString(), "node", node.id(), "status", "failed",
                "worker", IrMap.ENGINE_WORKER, "error", new EventDataText().text("message", message)
                        .text("kind", "permanent").text("code", code).end()));
    }

    private void post(RunPlan plan, Map<String, String> completion) {
        signals.post(plan.shard(), completion);
    }

    private static String abbreviated(JsonNode value) {
        String text = String.valueOf(value);
        return text.length() > 100 ? text.substring(0, 100) + "…" : text;
    }
}
