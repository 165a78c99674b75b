package io.tokenflow.agents.pipeline;

import java.util.Map;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.data.AggregateTaskHandler;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code groupby}: one row per distinct value of the {@code by} fields, holding those fields and each aggregation
 * ({@code count}, {@code sum}, {@code avg}, {@code min}, {@code max}; default a count), computed by the
 * {@code aggregate} worker.
 */
@Component
class GroupByStep implements PipelineStep {

    private final AggregateTaskHandler aggregate;

    GroupByStep(AggregateTaskHandler aggregate) {
        this.aggregate = aggregate;
    }

    @Override
    public String name() {
        return "groupby";
    }

    @Override
    public String usage() {
        return "{\"step\":\"groupby\",\"by\":[\"category\"],\"aggregations\":[{\"op\":\"sum\",\"field\":\"amount\","
                + "\"as\":\"total\"}]} (ops: count sum avg min max; default count) gives one row per group";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        ObjectNode input = JsonNodeFactory.instance.objectNode();
        Rows.of(data).forEach(input.putArray("items")::add);
        ObjectNode config = JsonNodeFactory.instance.objectNode();
        config.set("group_by", by(step.path("by")));
        config.set("aggregations", step.has("aggregations") ? step.get("aggregations")
                : JsonNodeFactory.instance.arrayNode().add(JsonNodeFactory.instance.objectNode().put("op", "count")));
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (JsonNode group : DataWorkerCall.run(aggregate, input, config).path("groups")) {
            ObjectNode row = rows.addObject();
            row.setAll((ObjectNode) group.get("key"));
            for (Map.Entry<String, JsonNode> member : group.properties()) {
                if (!member.getKey().equals("key")) {
                    row.set(member.getKey(), member.getValue());
                }
            }
        }
        return rows;
    }

    private static JsonNode by(JsonNode by) throws PipelineException {
        if (by.isString()) {
            return JsonNodeFactory.instance.arrayNode().add(by.stringValue());
        }
        if (by.isArray() && !by.isEmpty()) {
            return by;
        }
        throw new PipelineException("Expected \"by\" to be a field name or a non-empty list of them, but found "
                + (by.isMissingNode() ? "none" : by));
    }
}
