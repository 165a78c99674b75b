package io.tokenflow.engine.conditions;

import java.util.Set;

import tools.jackson.databind.JsonNode;

/**
 * What a condition looks at, from its {@code source} member: {@code current} (the completing node's output, the
 * default), {@code context} (the output of the earlier node named by {@code node}) or {@code input} (the run's
 * input). jsonpath and schema_validation conditions and the sides of a cross-node comparison use it.
 */
final class Subject {

    static final String CURRENT = "current";
    static final String CONTEXT = "context";
    static final String INPUT = "input";
    private static final Set<String> SOURCES = Set.of(CURRENT, CONTEXT, INPUT);

    private Subject() {
    }

    static String source(JsonNode holder) {
        return holder.path("source").asString(CURRENT);
    }

    /** Checks {@code source} and {@code node} of {@code holder}, found at {@code at} in the condition. */
    static boolean check(JsonNode holder, String at, ConditionCheck check) {
        JsonNode source = holder.path("source");
        if (!source.isMissingNode() && !(source.isString() && SOURCES.contains(source.asString()))) {
            return check.error(at + "/source", "Expected source to be one of current, context or input, but it is "
                    + source);
        }
        if (!CONTEXT.equals(source(holder))) {
            return true;
        }
        JsonNode node = holder.path("node");
        if (!node.isString()) {
            return check.error(at + "/node", "Expected a context source to name its node in 'node', but it has "
                    + (node.isMissingNode() ? "none" : node.toString()));
        }
        return check.existingNode(node.asString(), at + "/node", "the context source");
    }

    /** The document the source stands for. */
    static JsonNode resolve(JsonNode holder, ConditionEvaluation evaluation) {
        return switch (source(holder)) {
            case CONTEXT -> evaluation.outputOf(holder.path("node").asString());
            case INPUT -> evaluation.context().input();
            default -> evaluation.context().output();
        };
    }

    /** "the output", "the output of node 'x'" or "the run's input". */
    static String describe(JsonNode holder) {
        return switch (source(holder)) {
            case CONTEXT -> "the output of node '" + holder.path("node").asString() + "'";
            case INPUT -> "the run's input";
            default -> "the output";
        };
    }
}
