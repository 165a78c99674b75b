package io.tokenflow.engine.conditions;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.Diagnostics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Compiles conditions written as JSON text in a small workflow scope, and evaluates them, for the tests. */
final class Conditions {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final Set<String> NODES = Set.of("score_customer", "enrich_data", "initial_score", "referral_check",
            "calculate_total", "forecast", "call_payment_api", "fetch");

    private final ConditionEngine engine;

    Conditions(ConditionEngine engine) {
        this.engine = engine;
    }

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    /** The compiled condition; fails the test with the diagnostics when it does not compile. */
    CompiledCondition compile(String condition) {
        Diagnostics diagnostics = new Diagnostics();
        var compiled = engine.compile(json(condition), scope(), diagnostics);
        if (compiled.isEmpty()) {
            throw new AssertionError("Expected " + condition + " to compile, but: " + diagnostics.all());
        }
        return compiled.get();
    }

    /** The problems of a condition that does not compile (empty when it compiles). */
    List<Diagnostic> problems(String condition) {
        Diagnostics diagnostics = new Diagnostics();
        var compiled = engine.compile(json(condition), scope(), diagnostics);
        if (compiled.isPresent() && !diagnostics.all().isEmpty()) {
            throw new AssertionError("Expected no diagnostics for a compiled condition, but " + diagnostics.all());
        }
        return diagnostics.all();
    }

    boolean evaluate(String condition, String output, Map<String, String> context, String input) {
        return engine.evaluate(compile(condition), context(output, context, input));
    }

    boolean evaluate(String condition, String output) {
        return evaluate(condition, output, Map.of(), "{}");
    }

    static ConditionContext context(String output, Map<String, String> context, String input) {
        Map<String, JsonNode> outputs = new java.util.HashMap<>();
        context.forEach((node, value) -> outputs.put(node, json(value)));
        return new ConditionContext(json(output), outputs, json(input));
    }

    static ConditionCompiler.Scope scope() {
        return new ConditionCompiler.Scope("score_customer", "/nodes/0/branch/rules/0/condition", NODES);
    }
}
