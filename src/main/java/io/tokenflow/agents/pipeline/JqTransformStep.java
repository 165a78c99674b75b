package io.tokenflow.agents.pipeline;

import java.util.Map;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.cel.CelValues;
import io.tokenflow.workers.cel.CelEngine;
import io.tokenflow.workers.cel.ExpressionException;
import tools.jackson.databind.JsonNode;

/**
 * {@code jq_transform}: reshapes the data with one expression. The expression language is <b>CEL</b>, not jq (CEL is
 * already the engine's bounded expression language: a deadline, an iteration limit, no I/O): the data is
 * {@code input}, e.g. {@code input.map(r, {'name': r.name, 'total': r.qty * r.price})}.
 */
@Component
class JqTransformStep implements PipelineStep {

    private final CelEngine cel;

    JqTransformStep(CelEngine cel) {
        this.cel = cel;
    }

    @Override
    public String name() {
        return "jq_transform";
    }

    @Override
    public String usage() {
        return "{\"step\":\"jq_transform\",\"expression\":\"input.map(r, {'name': r.name})\"} reshapes the data with "
                + "a CEL expression (not jq syntax) where input is the data";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        String expression = Rows.text(step, "expression");
        try {
            return CelValues.toJson(cel.evaluate(expression, Map.of("input", CelValues.toCel(data))));
        } catch (ExpressionException e) {
            throw new PipelineException(e.getMessage());
        }
    }
}
