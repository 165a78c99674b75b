package io.tokenflow.coordinator;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import io.lettuce.core.KeyValue;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.redis.RedisConnections;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;

/**
 * Resolves a {@code ${…}} template of a node's settings (a map's {@code items}, a timer's {@code until}, a signal's
 * {@code key}) against a running run: its input, and the outputs of the nodes it names, read from the run's context
 * in one {@code HMGET}.
 */
@Component
public class RunReferences {

    private final RedisConnections redis;
    private final Payloads payloads;

    RunReferences(RedisConnections redis, Payloads payloads) {
        this.redis = redis;
        this.payloads = payloads;
    }

    public JsonNode resolve(RunPlan plan, String template) {
        StringNode text = StringNode.valueOf(template);
        Set<String> nodes = InputResolver.referencedNodes(text);
        Map<String, JsonNode> outputs = new HashMap<>();
        if (!nodes.isEmpty()) {
            for (KeyValue<String, String> output : redis.commands().hmget(plan.keys().ctx(),
                    nodes.toArray(String[]::new))) {
                outputs.put(output.getKey(), output.hasValue() ? payloads.fromContext(output.getValue()) : null);
            }
        }
        return InputResolver.resolve(text, plan.input(), outputs::get);
    }
}
