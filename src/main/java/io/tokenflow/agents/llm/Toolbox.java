package io.tokenflow.agents.llm;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.AgentRun;
import tools.jackson.databind.JsonNode;

/**
 * The tools offered to one agent node: those its {@code agent.tools} names (all when it names none) that are
 * available for it; {@code route} whenever the node has an agent-driven branch.
 */
@Component
class Toolbox {

    private static final String ROUTE = "route";

    private final List<AgentTool> tools;

    Toolbox(List<AgentTool> tools) {
        this.tools = List.copyOf(tools);
    }

    List<AgentTool> offered(AgentRun run) throws AgentFailure {
        Set<String> wanted = wanted(run.settings().path("tools"));
        List<AgentTool> offered = new ArrayList<>();
        for (AgentTool tool : tools) {
            boolean chosen = tool.name().equals(ROUTE) || wanted == null || wanted.contains(tool.name());
            if (chosen && tool.availableFor(run)) {
                offered.add(tool);
            }
        }
        return offered;
    }

    /** The tools a node names, or null when it names none (all are wanted). */
    private Set<String> wanted(JsonNode names) throws AgentFailure {
        if (names.isMissingNode() || names.isNull()) {
            return null;
        }
        Set<String> known = new TreeSet<>();
        tools.forEach(tool -> known.add(tool.name()));
        Set<String> wanted = new LinkedHashSet<>();
        for (JsonNode name : names) {
            if (!known.contains(name.asString(""))) {
                throw AgentFailure.permanent("invalid_config", "Expected agent.tools to name tools among " + known
                        + ", but found " + name);
            }
            wanted.add(name.stringValue());
        }
        return wanted;
    }
}
