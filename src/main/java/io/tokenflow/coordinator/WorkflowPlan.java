package io.tokenflow.coordinator;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.WorkflowIr;
import tools.jackson.databind.json.JsonMapper;

/** A pinned workflow version prepared for dispatch: its IR and each node's config as JSON text (computed once). */
public record WorkflowPlan(UUID workflowId, int version, WorkflowIr ir, Map<String, String> configs, boolean hasLoops) {

    public WorkflowPlan {
        configs = Map.copyOf(configs);
    }

    static WorkflowPlan of(UUID workflowId, int version, WorkflowIr ir, JsonMapper json) {
        Map<String, String> configs = new HashMap<>();
        for (IrNode node : ir.nodes().values()) {
            configs.put(node.id(), node.config() == null ? "{}" : json.writeValueAsString(node.config()));
        }
        boolean loops = ir.nodes().values().stream().anyMatch(node -> node.loop() != null);
        return new WorkflowPlan(workflowId, version, ir, configs, loops);
    }

    public IrNode node(String id) {
        return ir.nodes().get(id);
    }
}
