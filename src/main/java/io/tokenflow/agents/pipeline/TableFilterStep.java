package io.tokenflow.agents.pipeline;

import java.util.List;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.data.FilterTaskHandler;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code table_filter}: keeps the rows for which {@code condition} holds: a CEL expression over {@code item} (the
 * row), run by the {@code filter} worker with its limits, or {@code {"field", "op", "value"}} with op among
 * {@code == != > >= < <= contains in}.
 */
@Component
class TableFilterStep implements PipelineStep {

    private final FilterTaskHandler filter;

    TableFilterStep(FilterTaskHandler filter) {
        this.filter = filter;
    }

    @Override
    public String name() {
        return "table_filter";
    }

    @Override
    public String usage() {
        return "{\"step\":\"table_filter\",\"condition\":\"item.price < 300\"} (CEL over item) or "
                + "{\"condition\":{\"field\":\"tier\",\"op\":\"==\",\"value\":\"gold\"}} (op: == != > >= < <= "
                + "contains in) keeps matching rows";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        List<JsonNode> rows = Rows.of(data);
        JsonNode condition = step.path("condition");
        if (condition.isString()) {
            ObjectNode input = JsonNodeFactory.instance.objectNode();
            rows.forEach(input.putArray("items")::add);
            ObjectNode config = JsonNodeFactory.instance.objectNode().put("predicate", condition.stringValue());
            return DataWorkerCall.run(filter, input, config).get("items");
        }
        if (!condition.isObject()) {
            throw new PipelineException("Expected \"condition\" to be a CEL expression over item, or "
                    + "{\"field\", \"op\", \"value\"}, but found " + (condition.isMissingNode() ? "none" : condition));
        }
        FieldTest test = FieldTest.of(condition);
        ArrayNode kept = JsonNodeFactory.instance.arrayNode();
        for (JsonNode row : rows) {
            if (test.holdsFor(row)) {
                kept.add(row);
            }
        }
        return kept;
    }
}
