package io.tokenflow.engine.conditions;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;

/** Conditions are checked when the workflow compiles; each problem names the node, the JSON pointer and the fix. */
class ConditionCompileTests {

    private static final String AT = "/nodes/0/branch/rules/0/condition";

    private final Conditions conditions = new Conditions(ConditionEngine.withDefaults());

    @Test
    void reportsACelSyntaxErrorWithItsPosition() {
        Diagnostic problem = only(conditions.problems("{\"type\": \"cel\", \"expression\": \"output.score >= \"}"));

        assertThat(problem.nodeId()).isEqualTo("score_customer");
        assertThat(problem.pointer()).isEqualTo(AT + "/expression");
        assertThat(problem.message()).isEqualTo("Expected 'output.score >= ' to be a valid CEL expression, but an "
                + "expression is missing after '>=' at column 14");
    }

    @Test
    void reportsACtxNodeThatDoesNotExistWithItsPosition() {
        Diagnostic problem = only(conditions.problems("\"output.x > ctx.ghost.output.x\""));

        assertThat(problem.code()).isEqualTo("unknown-node");
        assertThat(problem.pointer()).as("the text is the condition").isEqualTo(AT);
        assertThat(problem.message()).isEqualTo("Expected ctx.ghost at line 1, column 12 to name a node of this "
                + "workflow, but 'ghost' is not one");
    }

    @Test
    void refusesCtxWithoutAStaticNodeId() {
        assertThat(only(conditions.problems("\"size(ctx) > 1\"")).message())
                .startsWith("Expected ctx to be followed by a node id (ctx.<node>.output) at line 1, column 6");
        assertThat(conditions.compile("\"ctx['fetch'].output.ok\"").contextNodes()).containsExactly("fetch");
        assertThat(conditions.compile("\"[1].all(ctx, ctx > 0)\"").contextNodes()).isEmpty();
    }

    @Test
    void refusesACelConditionThatCannotGiveABool() {
        assertThat(only(conditions.problems("\"1 + 2\"")).message())
                .isEqualTo("Expected CEL condition '1 + 2' to give a bool, but it gives int");
        assertThat(only(conditions.problems("\"'a' < 1\"")).message()).contains("'<' at column 5 cannot be applied to string and int");
    }

    @Test
    void reportsABadJsonPathQueryAndOperatorTogether() {
        List<Diagnostic> problems = conditions.problems("""
                {"type": "jsonpath", "query": "$.items[?(@.x ==]", "operator": "about", "value": 1}""");

        assertThat(problems).extracting(Diagnostic::pointer).containsExactly(AT + "/query", AT + "/operator");
        assertThat(problems.get(0).message()).startsWith("Expected a valid JSONPath query, but");
        assertThat(problems.get(1).message()).startsWith("Expected operator to be one of ==, !=, >, >=, <, <=, in, "
                + "not_in, contains, matches, exists, not_exists, sum_|min_|max_|avg_|count_ followed by")
                .endsWith("but it is \"about\"");
    }

    @Test
    void checksTheValueAgainstTheOperator() {
        assertThat(only(conditions.problems("{\"type\": \"jsonpath\", \"query\": \"$.a\", \"operator\": \"in\", "
                + "\"value\": \"x\"}")).message()).isEqualTo("Expected an array of values for operator in, but the value "
                + "is \"x\"");
        assertThat(only(conditions.problems("{\"type\": \"jsonpath\", \"query\": \"$.a[*]\", \"operator\": \"sum_gt\"}"))
                .pointer()).isEqualTo(AT + "/value");
        assertThat(only(conditions.problems("{\"type\": \"jsonpath\", \"query\": \"$.a\", \"operator\": \"matches\", "
                + "\"value\": \"(a\\\\1)\"}")).message()).startsWith("Expected a regular expression in RE2 syntax");
    }

    @Test
    void refusesRegexFiltersInJsonPathQueries() {
        Diagnostic problem = only(conditions.problems("""
                {"type": "jsonpath", "query": "$.users[?(@.name =~ /(a+)+$/)]", "operator": "exists"}"""));

        assertThat(problem.pointer()).isEqualTo(AT + "/query");
        assertThat(problem.message()).contains("without regex filters (=~)").contains("operator \"matches\"");
        assertThat(conditions.problems("{\"type\": \"jsonpath\", \"query\": \"$.ops[?(@.op == '=~')]\", "
                + "\"operator\": \"exists\"}")).isEmpty();
    }

    @Test
    void reportsAnInvalidJsonSchemaAtItsPointer() {
        Diagnostic problem = only(conditions.problems("""
                {"type": "schema_validation", "schema": {"type": "object", "properties": {"n": {"minimum": "five"}}}}"""));

        assertThat(problem.pointer()).isEqualTo(AT + "/schema/properties/n/minimum");
        assertThat(problem.message()).startsWith("Expected a valid JSON Schema (draft 2020-12), but");
    }

    @Test
    void refusesSchemasThatReferToOtherDocumentsOrUseBacktrackingPatterns() {
        assertThat(only(conditions.problems("""
                {"type": "schema_validation", "schema": {"$ref": "http://127.0.0.1:9/schema.json"}}""")).pointer())
                .isEqualTo(AT + "/schema/$ref");
        assertThat(only(conditions.problems("""
                {"type": "schema_validation", "schema": {"pattern": "(a)\\\\1"}}""")).message())
                .startsWith("Expected a JSON Schema whose patterns RE2 can run in linear time");
    }

    /** 1e308 is an integer to JSON Schema (no fraction), so the meta-schema takes it; loading it failed with a 500. */
    @Test
    void refusesALengthOrCountBeyondWhatAValueCanHaveAtItsPointer() {
        for (String keyword : new String[] {"maxLength", "minItems", "maxProperties"}) {
            Diagnostic problem = only(conditions.problems("{\"type\": \"schema_validation\", \"schema\": "
                    + "{\"properties\": {\"s\": {\"" + keyword + "\": 1e308}}}}"));

            assertThat(problem.pointer()).isEqualTo(AT + "/schema/properties/s/" + keyword);
            assertThat(problem.message()).startsWith("Expected " + keyword + " to be a whole number from 0 to "
                    + Integer.MAX_VALUE + ", but found ");
        }
    }

    @Test
    void reportsASchemaRefThatCasDoesNotHold() {
        Diagnostic problem = only(conditions.problems("{\"type\": \"schema_validation\", \"schema_ref\": "
                + "\"cas://sha256:" + "0".repeat(64) + "\"}"));

        assertThat(problem.pointer()).isEqualTo(AT + "/schema_ref");
        assertThat(problem.message()).contains("holds none");
    }

    @Test
    void checksCrossNodeSides() {
        List<Diagnostic> problems = conditions.problems("""
                {"type": "cross_node_comparison", "left": {"source": "current", "path": "score"}, "operator": "~",
                 "right": {"source": "context", "node": "ghost", "path": "output.score"}}""");

        assertThat(problems).extracting(Diagnostic::pointer)
                .containsExactly(AT + "/left/path", AT + "/right/node", AT + "/operator");
        assertThat(problems.get(0).message()).isEqualTo("Expected a path starting with 'output' (e.g. "
                + "output.items[0].price), but found \"score\"");
        assertThat(problems.get(1).code()).isEqualTo("unknown-node");
    }

    @Test
    void checksCompositeMembersAtTheirPointers() {
        List<Diagnostic> problems = conditions.problems("""
                {"type": "composite", "operator": "NOT", "conditions": [
                  {"type": "cel", "expression": "output.a"},
                  {"type": "composite", "operator": "OR", "conditions": [{"type": "cel", "expression": "ctx.nope.output"}]}]}""");

        assertThat(problems).extracting(Diagnostic::pointer)
                .containsExactly(AT + "/conditions", AT + "/conditions/1/conditions/0/expression");
        assertThat(problems.get(0).message()).isEqualTo("Expected a NOT condition to have exactly one member, but it "
                + "has 2");
    }

    @Test
    void pythonSandboxWithoutThePythonBuildSaysHowToEnableIt() {
        Diagnostic problem = only(conditions.problems("""
                {"type": "python_sandbox", "code": "def evaluate(output, context):\\n    return True"}"""));

        assertThat(problem.pointer()).isEqualTo(AT);
        assertThat(problem.message()).contains("this build has no Python runtime")
                .contains("mvn -Ppython package");
    }

    @Test
    void pythonSandboxWithoutARuntimeIsAnErrorAtRunTimeToo() {
        PythonRuntime accepting = new PythonRuntime() {
            @Override
            public Optional<String> check(String code) {
                return Optional.empty();
            }

            @Override
            public boolean evaluate(String code, String output, String context, String input, Duration timeout,
                                    long maxMemoryBytes) {
                return true;
            }
        };
        CompiledCondition compiled = new Conditions(new ConditionEngine(ConditionLimits.defaults(), CasContent.NONE,
                Optional.of(accepting))).compile("{\"type\": \"python_sandbox\", \"code\": \"x\"}");

        assertThat(compiled.contextNodes()).as("every other node by default")
                .containsExactlyInAnyOrderElementsOf(Conditions.NODES.stream()
                        .filter(node -> !node.equals("score_customer")).toList());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConditionEngine.withDefaults()
                        .evaluate(compiled, Conditions.context("{}", java.util.Map.of(), "{}")))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("mvn -Ppython package");
    }

    @Test
    void refusesNonConditions() {
        assertThat(only(conditions.problems("42")).message())
                .isEqualTo("Expected a condition object or a CEL expression, but found 42");
        assertThat(only(conditions.problems("{\"type\": \"lua\"}")).pointer()).isEqualTo(AT + "/type");
    }

    private static Diagnostic only(List<Diagnostic> problems) {
        assertThat(problems).hasSize(1);
        return problems.get(0);
    }
}
