package io.tokenflow.agents.pipeline;

import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * What a step may use besides its data.
 *
 * @param outputs the run's earlier node outputs by context key (for {@code join} with {@code with_node})
 * @param maxRows the most rows a table may hold
 */
record StepContext(Map<String, JsonNode> outputs, int maxRows) {

    StepContext {
        outputs = Map.copyOf(outputs);
    }
}
