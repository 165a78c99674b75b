package io.tokenflow.engine.conditions;

import java.util.Optional;
import java.util.Set;

import io.tokenflow.engine.dsl.Diagnostics;
import tools.jackson.databind.JsonNode;

/**
 * Compiles one condition of a workflow. Every problem is reported to {@code diagnostics} at the node and pointer
 * given; the result is empty when the condition cannot be used.
 */
public interface ConditionCompiler {

    Optional<CompiledCondition> compile(JsonNode condition, Scope scope, Diagnostics diagnostics);

    /**
     * Where a condition sits and what it may see.
     *
     * @param nodeId  the node the condition belongs to
     * @param pointer where the condition is in the document
     * @param nodeIds every node id of the workflow, which {@code ctx.<id>} may name
     */
    record Scope(String nodeId, String pointer, Set<String> nodeIds) {
        public Scope {
            nodeIds = Set.copyOf(nodeIds);
        }

        public Scope at(String childPointer) {
            return new Scope(nodeId, childPointer, nodeIds);
        }
    }
}
