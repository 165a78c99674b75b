package io.tokenflow.engine.conditions;

import java.util.Map;
import java.util.Objects;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * What a condition sees: {@code output} (the completing node's output), {@code ctx.<node>.output} (earlier nodes'
 * outputs by node id; only the nodes in {@link CompiledCondition#contextNodes()} need be present) and {@code input}
 * (the run's input).
 */
public record ConditionContext(JsonNode output, Map<String, JsonNode> nodeOutputs, JsonNode input) {

    public ConditionContext {
        output = output == null ? NullNode.getInstance() : output;
        nodeOutputs = Map.copyOf(Objects.requireNonNull(nodeOutputs, "nodeOutputs"));
        input = input == null ? NullNode.getInstance() : input;
    }
}
