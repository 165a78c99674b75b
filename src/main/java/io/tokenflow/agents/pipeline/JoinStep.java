package io.tokenflow.agents.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code join}: a hash join of the rows with a second table, given inline ({@code with}) or as an earlier node's
 * output ({@code with_node}, optionally {@code with_path} into it). {@code on} names the key field of both sides, or
 * {@code {"left", "right"}}; {@code how} is {@code inner} (default) or {@code left}. A key field both sides share is
 * kept once; other right-hand fields a left row already has are added as {@code right_<field>}.
 */
@Component
class JoinStep implements PipelineStep {

    @Override
    public String name() {
        return "join";
    }

    @Override
    public String usage() {
        return "{\"step\":\"join\",\"with\":[...] or \"with_node\":\"fetch_users\",\"with_path\":\"body\"?,"
                + "\"on\":\"id\" or {\"left\":\"user_id\",\"right\":\"id\"},\"how\":\"inner\"|\"left\"} joins two tables";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        List<JsonNode> left = Rows.of(data);
        List<JsonNode> right = Rows.of(rightTable(step, context));
        JsonNode on = step.path("on");
        String leftKey = on.isObject() ? Rows.text(on, "left") : Rows.text(step, "on");
        String rightKey = on.isObject() ? Rows.text(on, "right") : leftKey;
        String how = Rows.text(step, "how", "inner");
        if (!how.equals("inner") && !how.equals("left")) {
            throw new PipelineException("Expected \"how\" to be \"inner\" or \"left\", but found \"" + how + "\"");
        }
        Map<String, List<JsonNode>> index = new HashMap<>();
        for (JsonNode row : right) {
            JsonNode key = Rows.field(row, rightKey);
            if (!key.isMissingNode() && !key.isNull()) {
                index.computeIfAbsent(keyOf(key), k -> new ArrayList<>()).add(row);
            }
        }
        ArrayNode joined = JsonNodeFactory.instance.arrayNode();
        for (JsonNode row : left) {
            List<JsonNode> matches = index.getOrDefault(keyOf(Rows.field(row, leftKey)), List.of());
            if (matches.isEmpty() && how.equals("left")) {
                add(joined, row.deepCopy(), context);
            }
            for (JsonNode match : matches) {
                add(joined, merge(row, match, leftKey.equals(rightKey) ? rightKey : null), context);
            }
        }
        return joined;
    }

    /** Equal keys whatever their JSON form: 1, 1.0 and 1e0 are one key; "1" is another. */
    private static String keyOf(JsonNode key) {
        return key.isNumber() ? key.decimalValue().stripTrailingZeros().toPlainString() : key.toString();
    }

    private static JsonNode rightTable(JsonNode step, StepContext context) throws PipelineException {
        if (step.has("with")) {
            return step.get("with");
        }
        String node = Rows.text(step, "with_node");
        JsonNode output = context.outputs().get(node);
        if (output == null) {
            throw new PipelineException("Expected \"with_node\" to name a node that ran before, among "
                    + context.outputs().keySet() + ", but found \"" + node + "\"");
        }
        String path = Rows.text(step, "with_path", null);
        return path == null ? output : Rows.field(output, path);
    }

    /** The left row with the right row's fields; a shared key field ({@code sharedKey}, or null) is kept once. */
    private static ObjectNode merge(JsonNode left, JsonNode right, String sharedKey) {
        ObjectNode row = left.isObject() ? (ObjectNode) left.deepCopy() : JsonNodeFactory.instance.objectNode();
        if (right.isObject()) {
            for (Map.Entry<String, JsonNode> field : right.properties()) {
                if (field.getKey().equals(sharedKey)) {
                    continue;
                }
                row.set(row.has(field.getKey()) ? "right_" + field.getKey() : field.getKey(), field.getValue());
            }
        }
        return row;
    }

    private static void add(ArrayNode joined, JsonNode row, StepContext context) throws PipelineException {
        if (joined.size() >= context.maxRows()) {
            throw new PipelineException("Expected the join to give at most " + context.maxRows()
                    + " rows, but it gives more");
        }
        joined.add(row);
    }
}
