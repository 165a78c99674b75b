package io.tokenflow.agents.pipeline;

import java.util.Comparator;
import java.util.List;

import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** {@code table_sort}: a stable sort of the rows by one field; rows without the field come last either way. */
@Component
class TableSortStep implements PipelineStep {

    @Override
    public String name() {
        return "table_sort";
    }

    @Override
    public String usage() {
        return "{\"step\":\"table_sort\",\"field\":\"price\",\"order\":\"asc\"|\"desc\"} sorts rows by a field";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        String field = Rows.text(step, "field");
        List<JsonNode> rows = Rows.of(data);
        sort(rows, field, descending(step, "asc"));
        ArrayNode result = JsonNodeFactory.instance.arrayNode(rows.size());
        rows.forEach(result::add);
        return result;
    }

    /** Sorts rows in place (stably) by a field. */
    static void sort(List<JsonNode> rows, String field, boolean descending) {
        Comparator<JsonNode> byValue = (a, b) -> compareField(a, b, field, descending);
        rows.sort(byValue);
    }

    /** Whether {@code order} (default {@code fallback}) asks for descending order. */
    static boolean descending(JsonNode step, String fallback) throws PipelineException {
        String order = Rows.text(step, "order", fallback);
        if (!order.equals("asc") && !order.equals("desc")) {
            throw new PipelineException("Expected \"order\" to be \"asc\" or \"desc\", but found \"" + order + "\"");
        }
        return order.equals("desc");
    }

    private static int compareField(JsonNode a, JsonNode b, String field, boolean descending) {
        JsonNode left = Rows.field(a, field);
        JsonNode right = Rows.field(b, field);
        boolean leftAbsent = left.isMissingNode() || left.isNull();
        boolean rightAbsent = right.isMissingNode() || right.isNull();
        if (leftAbsent || rightAbsent) {
            return Boolean.compare(leftAbsent, rightAbsent);
        }
        int order = Rows.compare(left, right);
        return descending ? -order : order;
    }
}
