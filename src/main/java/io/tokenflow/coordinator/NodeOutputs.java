package io.tokenflow.coordinator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

/**
 * The output of the node a step sends tokens on from, and the earlier outputs its routing and its targets' inputs
 * read from the run's context (each read once, on demand).
 */
final class NodeOutputs {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final Payloads payloads;
    private final RunPlan plan;
    private final String ownNode;
    private final String ownText;
    private final String ownRef;
    private final Map<String, JsonNode> others = new HashMap<>();
    private JsonNode own;

    /**
     * @param ownText the node's output as JSON text, or null when it travels by reference
     * @param ownRef  the CAS reference of a large output, else null
     */
    NodeOutputs(RedisConnections redis, RedisKeys keys, Payloads payloads, RunPlan plan, String ownNode,
                String ownText, String ownRef) {
        this.redis = redis;
        this.keys = keys;
        this.payloads = payloads;
        this.plan = plan;
        this.ownNode = ownNode;
        this.ownText = ownText;
        this.ownRef = ownRef;
    }

    /** Reads from the run's context the outputs of {@code ids} not read yet (the own node's excepted). */
    void read(Set<String> ids) {
        List<String> missing = ids.stream().filter(id -> !id.equals(ownNode) && !others.containsKey(id)).toList();
        if (!missing.isEmpty()) {
            redis.commands().hmget(plan.keys().ctx(), missing.toArray(String[]::new)).forEach(kv ->
                    others.put(kv.getKey(), kv.hasValue() ? payloads.fromContext(kv.getValue()) : null));
        }
    }

    /** A node's output as read (null when it has none yet). */
    JsonNode of(String id) {
        return id.equals(ownNode) ? own() : others.get(id);
    }

    /** The input of a token sent to {@code target}: its input mapping resolved, or the own output passed on. */
    Payloads.TaskInput inputFor(IrNode target) {
        if (target.inputMapping() == null) {
            return ownRef != null ? new Payloads.TaskInput(null, ownRef)
                    : ownText.length() <= Payloads.INLINE_LIMIT ? new Payloads.TaskInput(ownText, null)
                    : payloads.taskInput(plan, own());
        }
        return payloads.taskInput(plan, InputResolver.resolve(target.inputMapping(), plan.input(), this::of));
    }

    JsonNode own() {
        if (own == null) {
            own = payloads.fromContext(payloads.contextValue(plan, ownText, ownRef));
        }
        return own;
    }
}
