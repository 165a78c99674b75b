package io.tokenflow.engine.conditions;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import io.tokenflow.engine.dsl.Diagnostics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The six condition types behind one compiler and one evaluator. Compiling normalises a condition (the seed-001
 * string form becomes {@code {"type": "cel", "expression": …}}; a {@code python_sandbox} condition gets its
 * {@code context_nodes}), lets its type check it and records the nodes it reads. Evaluating gives the whole
 * condition one deadline and turns every failure into a {@link ConditionEvaluationException}. Whatever a type
 * compiles (CEL programs, JSONPath queries, schemas) is cached, and shared between compiling and evaluating.
 */
public final class ConditionEngine implements ConditionCompiler, ConditionEvaluator {

    private final ConditionLimits limits;
    private final Map<String, ConditionType> types = new LinkedHashMap<>();

    public ConditionEngine(ConditionLimits limits, CasContent cas, Optional<PythonRuntime> python) {
        this.limits = limits;
        CelCondition cel = new CelCondition(limits);
        register(cel);
        register(new JsonPathCondition(limits));
        register(new SchemaCondition(limits, cas));
        register(new CrossNodeCondition(cel));
        register(new CompositeCondition());
        register(new PythonCondition(limits, cas, python));
    }

    /** With the Python runtime on the class path, if any. */
    public ConditionEngine(ConditionLimits limits, CasContent cas) {
        this(limits, cas, PythonRuntime.discover());
    }

    /** Default limits, no CAS, no Python: for tests and tools. */
    public static ConditionEngine withDefaults() {
        return new ConditionEngine(ConditionLimits.defaults(), CasContent.NONE, Optional.empty());
    }

    /** The condition types this engine knows, by name. */
    public java.util.Set<String> typeNames() {
        return java.util.Set.copyOf(types.keySet());
    }

    @Override
    public Optional<CompiledCondition> compile(JsonNode condition, Scope scope, Diagnostics diagnostics) {
        JsonNode normalised = normalise(condition, scope);
        if (!check(normalised, scope, diagnostics, condition.isString())) {
            return Optional.empty();
        }
        return Optional.of(new CompiledCondition(normalised.path("type").asString(), normalised,
                ContextNodes.of(normalised)));
    }

    @Override
    public boolean evaluate(CompiledCondition condition, ConditionContext context) {
        prepare(condition.definition());
        Deadline deadline = Deadline.after(limits.deadline());
        return decide(condition.definition(), new ConditionEvaluation(this, context, deadline));
    }

    /** Compiles a condition's parts (or finds them cached); see {@link ConditionType#prepare}. */
    void prepare(JsonNode condition) {
        ConditionType type = type(condition);
        try {
            type.prepare(condition, this);
        } catch (ConditionEvaluationException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            throw new ConditionEvaluationException("Expected the " + type.name() + " condition to compile, but " + e,
                    e);
        }
    }

    boolean check(JsonNode condition, Scope scope, Diagnostics diagnostics, boolean authoredAsText) {
        ConditionCheck check = new ConditionCheck(this, scope, diagnostics, authoredAsText);
        if (!condition.isObject()) {
            return check.error("", "Expected a condition object or a CEL expression, but found " + condition);
        }
        ConditionType type = types.get(condition.path("type").asString(""));
        if (type == null) {
            return check.error("/type", "Expected a condition type (one of " + String.join(", ", types.keySet())
                    + "), but found " + condition.path("type"));
        }
        return type.check(condition, check);
    }

    boolean decide(JsonNode condition, ConditionEvaluation evaluation) {
        ConditionType type = type(condition);
        String name = type.name();
        try {
            evaluation.deadline().check("the " + name + " condition");
            return type.evaluate(condition, evaluation);
        } catch (ConditionEvaluationException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            throw new ConditionEvaluationException("Expected the " + name + " condition to be decided, but it failed: "
                    + e, e);
        }
    }

    private ConditionType type(JsonNode condition) {
        ConditionType type = types.get(condition.path("type").asString(""));
        if (type == null) {
            throw new ConditionEvaluationException("Expected a condition type (one of "
                    + String.join(", ", types.keySet()) + "), but found " + condition.path("type"));
        }
        return type;
    }

    private void register(ConditionType type) {
        types.put(type.name(), type);
    }

    private static JsonNode normalise(JsonNode condition, Scope scope) {
        if (condition.isString()) {
            ObjectNode cel = JsonNodeFactory.instance.objectNode();
            cel.put("type", "cel");
            cel.put("expression", condition.asString());
            return cel;
        }
        if (!condition.isObject()) {
            return condition;
        }
        String type = condition.path("type").asString("");
        if (type.equals("composite") && condition.path("conditions").isArray()) {
            ObjectNode composite = ((ObjectNode) condition).deepCopy();
            ArrayNode members = composite.putArray("conditions");
            condition.get("conditions").forEach(member -> members.add(normalise(member, scope)));
            return composite;
        }
        if (type.equals("python_sandbox") && !condition.has(PythonCondition.CONTEXT_NODES)) {
            ObjectNode python = ((ObjectNode) condition).deepCopy();
            ArrayNode nodes = python.putArray(PythonCondition.CONTEXT_NODES);
            new TreeSet<>(scope.nodeIds()).stream().filter(id -> !id.equals(scope.nodeId())).forEach(nodes::add);
            return python;
        }
        return condition;
    }
}
