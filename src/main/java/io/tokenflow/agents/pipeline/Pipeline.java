package io.tokenflow.agents.pipeline;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentSettings;
import tools.jackson.databind.JsonNode;

/**
 * Runs an {@code execute_pipeline} call: steps in order, each on the previous step's result, starting from the given
 * data. At most {@code tokenflow.agents.pipeline.max-steps} steps; no table may grow past {@code max-rows} rows.
 */
@Component
public class Pipeline {

    private final Map<String, PipelineStep> steps = new TreeMap<>();
    private final AgentSettings.Pipeline limits;

    Pipeline(List<PipelineStep> primitives, AgentSettings settings) {
        primitives.forEach(step -> {
            if (steps.putIfAbsent(step.name(), step) != null) {
                throw new IllegalStateException("Expected one pipeline step named '" + step.name() + "'");
            }
        });
        this.limits = settings.pipeline();
    }

    /** The primitives by name, each with its usage line. */
    public Map<String, String> primitives() {
        Map<String, String> usage = new TreeMap<>();
        steps.forEach((name, step) -> usage.put(name, step.usage()));
        return usage;
    }

    public JsonNode run(JsonNode pipeline, JsonNode data, Map<String, JsonNode> outputs) throws PipelineException {
        if (!pipeline.isArray() || pipeline.isEmpty()) {
            throw new PipelineException("Expected \"pipeline\" to be a non-empty list of steps, but found "
                    + (pipeline.isMissingNode() ? "none" : pipeline));
        }
        if (pipeline.size() > limits.maxSteps()) {
            throw new PipelineException("Expected at most " + limits.maxSteps() + " steps in a pipeline, but found "
                    + pipeline.size());
        }
        StepContext context = new StepContext(outputs, limits.maxRows());
        JsonNode current = data;
        for (int i = 0; i < pipeline.size(); i++) {
            current = runStep(i, pipeline.get(i), current, context);
        }
        return current;
    }

    private JsonNode runStep(int index, JsonNode step, JsonNode data, StepContext context) throws PipelineException {
        String name = step.path("step").asString("");
        PipelineStep primitive = steps.get(name);
        if (primitive == null) {
            throw new PipelineException("Step " + index + ": expected \"step\" among " + steps.keySet()
                    + ", but found " + (step.has("step") ? step.get("step") : "none"));
        }
        try {
            JsonNode result = primitive.apply(data, step, context);
            if (result.isArray() && result.size() > limits.maxRows()) {
                throw new PipelineException("expected at most " + limits.maxRows() + " rows, but the result has "
                        + result.size());
            }
            return result;
        } catch (PipelineException e) {
            throw new PipelineException("Step " + index + " (" + name + "): " + e.getMessage());
        }
    }
}
