package io.tokenflow.supervisor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Payloads;
import io.tokenflow.engine.ir.IrMap;
import io.tokenflow.engine.replay.EventDataText;
import io.tokenflow.engine.replay.MapItemsDone;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.signing.EngineSignals;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Completes a map node once the event log holds its {@code map.items.done} (and so, the events stream being in
 * order, every element's outcome before it): reads the elements' outputs from the event log, puts them in element
 * order ({@code {"error": …}} for an element that failed onto an error path; the last outcome of an element counts,
 * for a map started again by a recovery), and sends the node's completion with that list on the completions stream,
 * as a worker would. It is sent before the entry is acknowledged, so a supervisor that dies in between sends it again
 * and the routing step absorbs the repeat. The list never lives in Redis: that is what keeps a map's Redis memory to
 * its running elements.
 */
@Component
class MapResults {

    private final JdbcTemplate jdbc;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final Payloads payloads;
    private final EngineSignals signals;

    MapResults(JdbcTemplate jdbc, RedisConnections redis, RedisKeys keys, Payloads payloads, EngineSignals signals) {
        this.signals = signals;
        this.jdbc = jdbc;
        this.redis = redis;
        this.keys = keys;
        this.payloads = payloads;
    }

    void complete(UUID run, MapItemsDone done) {
        int total = done.completed() + done.failed();
        JsonNode[] outcomes = new JsonNode[total];
        jdbc.query("select event_type, data::text from event_log where run_id = ? and node_id = ? and event_type in "
                + "('map.item.completed', 'map.item.failed') and (data->>'iteration')::int = ? and seq < ? "
                + "order by seq", row -> {
                    JsonNode data = payloads.parse(row.getString(2));
                    int index = data.path("index").asInt(-1);
                    if (index >= 0 && index < total) {
                        outcomes[index] = "map.item.completed".equals(row.getString(1))
                                ? data.get("output") : JsonNodeFactory.instance.objectNode().set("error",
                                data.get("error"));
                    }
                }, run, done.node(), done.iteration(), done.seq());
        Map<String, String> completion = new LinkedHashMap<>();
        completion.put("token", done.token());
        completion.put("run", run.toString());
        completion.put("node", done.node());
        completion.put("worker", IrMap.ENGINE_WORKER);
        ArrayNode list = JsonNodeFactory.instance.arrayNode(total);
        for (int index = 0; index < total; index++) {
            if (outcomes[index] == null) {
                completion.put("status", "failed");
                completion.put("error", new EventDataText().text("message", "Expected an outcome of every element "
                        + "of the map in the event log, but element " + index + " of " + total + " has none")
                        .text("kind", "permanent").text("code", "map_outcome_missing").end());
                post(run, completion);
                return;
            }
            JsonNode outcome = outcomes[index];
            list.add(outcome.isObject() && outcome.has("$ref") ? payloads.fromContext(outcome.toString()) : outcome);
        }
        Payloads.TaskInput output = payloads.taskInput(run, list);
        completion.put("status", "completed");
        if (output.reference() != null) {
            completion.put("output_ref", output.reference());
        } else {
            completion.put("output", output.inline());
        }
        post(run, completion);
    }

    private void post(UUID run, Map<String, String> completion) {
        signals.post(keys.shardOf(run), completion);
    }
}
