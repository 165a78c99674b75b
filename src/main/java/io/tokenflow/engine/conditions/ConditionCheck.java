package io.tokenflow.engine.conditions;

import java.util.Set;

import io.tokenflow.engine.dsl.Diagnostics;
import tools.jackson.databind.JsonNode;

/** One condition being checked: where it is, where its problems go, and how its member conditions are checked. */
final class ConditionCheck {

    static final String CONDITION = "condition";
    static final String UNKNOWN_NODE = "unknown-node";

    private final ConditionEngine engine;
    private final ConditionCompiler.Scope scope;
    private final Diagnostics diagnostics;
    private final boolean authoredAsText;

    /**
     * @param authoredAsText the condition was written as CEL text (seed-001 form): its expression is the condition
     *                       itself, so problems of {@code /expression} are reported at the condition's pointer
     */
    ConditionCheck(ConditionEngine engine, ConditionCompiler.Scope scope, Diagnostics diagnostics,
                   boolean authoredAsText) {
        this.engine = engine;
        this.scope = scope;
        this.diagnostics = diagnostics;
        this.authoredAsText = authoredAsText;
    }

    Set<String> nodeIds() {
        return scope.nodeIds();
    }

    String nodeId() {
        return scope.nodeId();
    }

    /** Reports a problem at {@code member} (a pointer suffix such as {@code /expression}, or "") and returns false. */
    boolean error(String member, String message) {
        diagnostics.error(CONDITION, scope.nodeId(), pointer(member), message);
        return false;
    }

    /** Reports a node id that is not one of the workflow's and returns false. */
    boolean unknownNode(String member, String message) {
        diagnostics.error(UNKNOWN_NODE, scope.nodeId(), pointer(member), message);
        return false;
    }

    private String pointer(String member) {
        return authoredAsText && member.equals("/expression") ? scope.pointer() : scope.pointer() + member;
    }

    /** Checks a member condition found at {@code member} of this one. */
    boolean member(JsonNode condition, String member) {
        return engine.check(condition, scope.at(scope.pointer() + member), diagnostics, false);
    }

    /** Checks that {@code node} names a node of the workflow; {@code what} says where it was named. */
    boolean existingNode(String node, String member, String what) {
        if (nodeIds().contains(node)) {
            return true;
        }
        return unknownNode(member, "Expected " + what + " to name a node of this workflow, but '" + node
                + "' is not one");
    }
}
