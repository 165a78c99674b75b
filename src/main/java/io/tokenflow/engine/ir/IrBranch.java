package io.tokenflow.engine.ir;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.tokenflow.engine.conditions.CompiledCondition;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * Dynamic routing: rules in order, first match wins, else {@code default}. For {@code agent_driven} branches the
 * agent chooses among {@code availableNextNodes}, and {@code default} is taken when its choice is refused.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record IrBranch(boolean enabled, String type, List<Rule> rules, @JsonProperty("default") List<String> defaultPath,
                       List<String> availableNextNodes) {

    /** The branch type that lets an agent choose among {@code available_next_nodes}. */
    public static final String AGENT_DRIVEN = "agent_driven";

    public IrBranch {
        rules = List.copyOf(rules);
        defaultPath = List.copyOf(defaultPath);
        availableNextNodes = List.copyOf(availableNextNodes);
    }

    /** A rule: when {@code condition} holds, emit to {@code nextNodes}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Rule(String name, CompiledCondition condition, List<String> nextNodes) {
        public Rule {
            nextNodes = List.copyOf(nextNodes);
        }
    }

    /** Every node this branch can emit to. */
    public List<String> allTargets() {
        java.util.LinkedHashSet<String> targets = new java.util.LinkedHashSet<>();
        rules.forEach(rule -> targets.addAll(rule.nextNodes()));
        targets.addAll(defaultPath);
        targets.addAll(availableNextNodes);
        return List.copyOf(targets);
    }
}
