package io.tokenflow.agents.pipeline;

import java.util.List;

import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** {@code top_k}: the first {@code k} rows, after sorting by {@code field} (descending unless told) when given. */
@Component
class TopKStep implements PipelineStep {

    @Override
    public String name() {
        return "top_k";
    }

    @Override
    public String usage() {
        return "{\"step\":\"top_k\",\"k\":3,\"field\":\"score\"?,\"order\":\"desc\"?} keeps the first k rows "
                + "(sorted by field first when given)";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        JsonNode k = step.path("k");
        if (!k.canConvertToInt() || !k.isIntegralNumber() || k.intValue() < 0) {
            throw new PipelineException("Expected \"k\" to be a whole number >= 0, but found "
                    + (k.isMissingNode() ? "none" : k));
        }
        List<JsonNode> rows = Rows.of(data);
        String field = Rows.text(step, "field", null);
        if (field != null) {
            TableSortStep.sort(rows, field, TableSortStep.descending(step, "desc"));
        }
        ArrayNode result = JsonNodeFactory.instance.arrayNode();
        rows.stream().limit(k.intValue()).forEach(result::add);
        return result;
    }
}
