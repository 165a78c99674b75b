package io.tokenflow.agents;

import java.util.List;
import java.util.Map;

import io.tokenflow.engine.ir.IrBranch;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.workers.Task;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * What an agent node works with: its token, its node in the run's IR, the run's input and the outputs of the nodes
 * that ran before it (by context key: the node id, {@code node#iteration} inside loops; CAS references resolved).
 */
public record AgentRun(Task task, IrNode node, JsonNode runInput, Map<String, JsonNode> outputs) {

    private static final String AGENT_DRIVEN = "agent_driven";

    public AgentRun {
        outputs = Map.copyOf(outputs);
    }

    /** The node's {@code agent} settings ({@code {}} when it has none). */
    public JsonNode settings() {
        return node.agent() == null ? JsonNodeFactory.instance.objectNode() : node.agent();
    }

    /** Whether the node has an agent-driven branch, so the agent decides where the run goes next. */
    public boolean routes() {
        IrBranch branch = node.branch();
        return branch != null && AGENT_DRIVEN.equals(branch.type());
    }

    /** The nodes the agent may choose among; empty when it does not route. */
    public List<String> availableNextNodes() {
        return routes() ? node.branch().availableNextNodes() : List.of();
    }

    /** The nodes taken when the agent's choice is refused. */
    public List<String> defaultNextNodes() {
        return routes() ? node.branch().defaultPath() : List.of();
    }
}
