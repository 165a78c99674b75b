package io.tokenflow.engine.conditions;

import tools.jackson.databind.JsonNode;

/**
 * {@code cross_node_comparison}: compares two sides, each the current output ({@code {"source": "current", "path":
 * "output.final_score"}}), an earlier node's output ({@code {"source": "context", "node": "x", "path":
 * "output.score"}}), the run's input ({@code {"source": "input", "path": "input.limit"}}) or a literal
 * ({@code {"value": true}}), with a {@link Comparison} operator; or a CEL {@code expression} over
 * {@code current.output} and {@code ctx.<node>.output}.
 */
final class CrossNodeCondition implements ConditionType {

    private final CelCondition cel;

    CrossNodeCondition(CelCondition cel) {
        this.cel = cel;
    }

    @Override
    public String name() {
        return "cross_node_comparison";
    }

    @Override
    public boolean check(JsonNode condition, ConditionCheck check) {
        if (condition.has("expression")) {
            return cel.checkExpression(condition.get("expression"), "/expression", check);
        }
        boolean valid = checkSide(condition.path("left"), "/left", check);
        valid &= checkSide(condition.path("right"), "/right", check);
        var comparison = Comparison.parse(condition.path("operator").asString(""), false);
        if (comparison.isEmpty()) {
            return check.error("/operator", "Expected operator to be one of " + Comparison.known(false) + ", but it is "
                    + condition.path("operator"));
        }
        JsonNode right = condition.path("right");
        if (valid && isLiteral(right)) {
            String problem = comparison.get().valueProblem(right.get("value"));
            valid = problem == null || check.error("/right/value", problem);
        }
        return valid;
    }

    @Override
    public void prepare(JsonNode condition, ConditionEngine engine) {
        if (condition.has("expression")) {
            cel.prepare(condition.get("expression").asString());
        }
    }

    @Override
    public boolean evaluate(JsonNode condition, ConditionEvaluation evaluation) {
        if (condition.has("expression")) {
            return cel.decide(condition.get("expression").asString(), evaluation);
        }
        Comparison comparison = Comparison.parse(condition.path("operator").asString(), false).orElseThrow(() ->
                new ConditionEvaluationException("Expected a known operator, but it is " + condition.get("operator")));
        JsonNode left = condition.path("left");
        return comparison.test(side(left, evaluation), side(condition.path("right"), evaluation), describe(left));
    }

    private static boolean isLiteral(JsonNode side) {
        return side.has("value") && (!side.has("source") || "literal".equals(side.path("source").asString("")));
    }

    private static boolean checkSide(JsonNode side, String at, ConditionCheck check) {
        if (!side.isObject()) {
            return check.error(at, "Expected a side like {\"source\": \"current\", \"path\": \"output.x\"} or "
                    + "{\"value\": 3}, but found " + side);
        }
        if (isLiteral(side)) {
            return true;
        }
        if (!Subject.check(side, at, check)) {
            return false;
        }
        String root = Subject.INPUT.equals(Subject.source(side)) ? "input" : "output";
        var path = FieldPath.parse(side.path("path").asString(""));
        if (path.isEmpty() || !path.get().root().equals(root)) {
            return check.error(at + "/path", "Expected a path starting with '" + root + "' (e.g. " + root
                    + ".items[0].price), but found " + side.path("path"));
        }
        return true;
    }

    /** The side's value, or null when its path selects nothing. */
    private static JsonNode side(JsonNode side, ConditionEvaluation evaluation) {
        if (isLiteral(side)) {
            return side.get("value");
        }
        JsonNode root = Subject.resolve(side, evaluation);
        return FieldPath.parse(side.path("path").asString()).orElseThrow(() -> new ConditionEvaluationException(
                "Expected a path, but found " + side.path("path"))).resolve(root);
    }

    private static String describe(JsonNode side) {
        return isLiteral(side) ? "the left value" : side.path("path").asString() + " of " + Subject.describe(side);
    }
}
