package io.tokenflow.engine.conditions;

import tools.jackson.databind.JsonNode;

/**
 * {@code {"type": "composite", "operator": "AND" | "OR" | "NOT", "conditions": [...]}}: members of any type, nested
 * to any depth, decided in order with short-circuit (AND stops at the first false, OR at the first true); NOT has
 * exactly one member. All members share the evaluation's deadline.
 */
final class CompositeCondition implements ConditionType {

    @Override
    public String name() {
        return "composite";
    }

    @Override
    public boolean check(JsonNode condition, ConditionCheck check) {
        String operator = condition.path("operator").asString("");
        JsonNode members = condition.path("conditions");
        if (!operator.equals("AND") && !operator.equals("OR") && !operator.equals("NOT")) {
            return check.error("/operator", "Expected operator AND, OR or NOT, but it is " + condition.path("operator"));
        }
        if (!members.isArray() || members.isEmpty()) {
            return check.error("/conditions", "Expected a non-empty array of conditions, but found " + members);
        }
        boolean valid = true;
        if (operator.equals("NOT") && members.size() != 1) {
            valid = check.error("/conditions", "Expected a NOT condition to have exactly one member, but it has "
                    + members.size());
        }
        for (int i = 0; i < members.size(); i++) {
            valid &= check.member(members.get(i), "/conditions/" + i);
        }
        return valid;
    }

    @Override
    public void prepare(JsonNode condition, ConditionEngine engine) {
        condition.path("conditions").forEach(engine::prepare);
    }

    @Override
    public boolean evaluate(JsonNode condition, ConditionEvaluation evaluation) {
        JsonNode members = condition.path("conditions");
        return switch (condition.path("operator").asString()) {
            case "NOT" -> !evaluation.member(members.get(0));
            case "OR" -> any(members, evaluation);
            default -> all(members, evaluation);
        };
    }

    private static boolean all(JsonNode members, ConditionEvaluation evaluation) {
        for (JsonNode member : members) {
            if (!evaluation.member(member)) {
                return false;
            }
        }
        return true;
    }

    private static boolean any(JsonNode members, ConditionEvaluation evaluation) {
        for (JsonNode member : members) {
            if (evaluation.member(member)) {
                return true;
            }
        }
        return false;
    }
}
