package io.tokenflow.engine.dsl;

import java.util.List;
import java.util.Objects;

/**
 * Routing by rules (first match wins, else {@code default}) or, for {@code agent_driven}, by an agent choosing
 * among {@code availableNextNodes}.
 */
public record BranchDefinition(String pointer, String type, List<Rule> rules, List<Target> defaultPath,
                               List<Target> availableNextNodes) {

    public static final String CONDITIONAL = "conditional";
    public static final String AGENT_DRIVEN = "agent_driven";

    public BranchDefinition {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(type, "type");
        rules = List.copyOf(rules);
        defaultPath = List.copyOf(defaultPath);
        availableNextNodes = List.copyOf(availableNextNodes);
    }

    /** One rule: when the condition holds, emit to {@code nextNodes}. */
    public record Rule(String pointer, String name, tools.jackson.databind.JsonNode condition, List<Target> nextNodes) {
        public Rule {
            Objects.requireNonNull(pointer, "pointer");
            Objects.requireNonNull(condition, "condition");
            nextNodes = List.copyOf(nextNodes);
        }
    }
}
