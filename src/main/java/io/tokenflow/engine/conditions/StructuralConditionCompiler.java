package io.tokenflow.engine.conditions;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import io.tokenflow.engine.dsl.Diagnostics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Normalises conditions and checks what can be checked without an expression language: the seed-001 string form
 * becomes a CEL condition, and context sources of cross-node comparisons and composite members must name existing
 * nodes. Shape (required members per type) was already enforced by the DSL schema.
 */
public final class StructuralConditionCompiler implements ConditionCompiler {

    @Override
    public Optional<CompiledCondition> compile(JsonNode condition, Scope scope, Diagnostics diagnostics) {
        JsonNode normalised = normalise(condition);
        Set<String> contextNodes = new HashSet<>();
        boolean valid = check(normalised, scope, contextNodes, diagnostics);
        return valid ? Optional.of(new CompiledCondition(normalised.path("type").asString(), normalised, contextNodes))
                : Optional.empty();
    }

    private static JsonNode normalise(JsonNode condition) {
        if (condition.isString()) {
            ObjectNode cel = JsonNodeFactory.instance.objectNode();
            cel.put("type", "cel");
            cel.put("expression", condition.asString());
            return cel;
        }
        return condition;
    }

    private boolean check(JsonNode condition, Scope scope, Set<String> contextNodes, Diagnostics diagnostics) {
        String type = condition.path("type").asString();
        if ("composite".equals(type)) {
            return checkComposite(condition, scope, contextNodes, diagnostics);
        }
        if ("cross_node_comparison".equals(type)) {
            return checkSide(condition.get("left"), scope.at(scope.pointer() + "/left"), contextNodes, diagnostics)
                    & checkSide(condition.get("right"), scope.at(scope.pointer() + "/right"), contextNodes, diagnostics);
        }
        return true;
    }

    private boolean checkComposite(JsonNode condition, Scope scope, Set<String> contextNodes, Diagnostics diagnostics) {
        JsonNode members = condition.get("conditions");
        boolean valid = true;
        if ("NOT".equals(condition.path("operator").asString()) && members.size() != 1) {
            diagnostics.error("condition", scope.nodeId(), scope.pointer() + "/conditions",
                    "Expected a NOT condition to have exactly one member, but it has " + members.size());
            valid = false;
        }
        for (int i = 0; i < members.size(); i++) {
            valid &= check(members.get(i), scope.at(scope.pointer() + "/conditions/" + i), contextNodes, diagnostics);
        }
        return valid;
    }

    private boolean checkSide(JsonNode side, Scope scope, Set<String> contextNodes, Diagnostics diagnostics) {
        if (side == null || !"context".equals(side.path("source").asString())) {
            return true;
        }
        String node = side.path("node").asString("");
        if (!scope.nodeIds().contains(node)) {
            diagnostics.error("unknown-node", scope.nodeId(), scope.pointer() + "/node",
                    "Expected the context source to name a node of this workflow, but '" + node + "' is not one");
            return false;
        }
        contextNodes.add(node);
        return true;
    }
}
