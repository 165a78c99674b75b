package io.tokenflow.engine.conditions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;

/**
 * No condition can hang or exhaust the coordinator: exponential CEL is refused when compiling or stopped by the
 * iteration budget or the deadline, and regular expressions run in linear time (RE2) or are refused. Wall times are
 * printed; the assertions only check a generous bound.
 */
class BoundedEvaluationTests {

    private static final Duration GENEROUS = Duration.ofSeconds(3);
    private static final String BOMB = "^(a+)+$";
    /** Enough for java.util.regex to backtrack for hours on {@link #BOMB}; RE2 answers at once. */
    private static final String BOMB_INPUT = "{\"text\": \"" + "a".repeat(40) + "!\"}";

    @Test
    void deeplyNestedComprehensionsAreRefusedWhenCompiling() {
        Conditions conditions = new Conditions(ConditionEngine.withDefaults());

        Diagnostic problem = conditions.problems("\"" + nested(8, "[1,2,3]") + "\"").get(0);

        assertThat(problem.message()).startsWith("Expected comprehensions (all, exists, exists_one, map, filter) "
                + "nested at most 3 deep").endsWith("but they are nested 8 deep");
        assertThat(conditions.problems("\"" + nested(3, "[1,2,3]") + "\"")).isEmpty();
        assertThat(conditions.problems("\"[1,2].map(x, x * 2).filter(y, y > 2).all(z, [z].exists(w, w > 0))\""))
                .as("comprehensions over another's result run one after the other").isEmpty();
    }

    @Test
    void theIterationBudgetStopsAComprehensionThatPassedTheCompiler() {
        ConditionEngine patient = engine(ConditionLimits.defaults().withDeadline(Duration.ofSeconds(30)));
        CompiledCondition heavy = new Conditions(patient).compile("\"" + nested(3, range(100)) + "\"");

        Duration took = timed(() -> assertThatThrownBy(() -> patient.evaluate(heavy,
                        Conditions.context("{}", Map.of(), "{}")))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("Iteration budget exceeded"),
                "CEL 100^3 iterations against a budget of 10,000");

        assertThat(took).isLessThan(GENEROUS);
    }

    @Test
    void theDeadlineStopsAnEvaluationWhenIterationsAreUnbounded() {
        ConditionEngine engine = engine(ConditionLimits.defaults().withMaxIterations(Integer.MAX_VALUE)
                .withMaxComprehensionDepth(8).withDeadline(Duration.ofMillis(50)));
        CompiledCondition bomb = new Conditions(engine).compile("\"" + nested(8, "[1,2,3,4,5,6,7,8,9,10]") + "\"");

        Duration took = timed(() -> assertThatThrownBy(() -> engine.evaluate(bomb, Conditions.context("{}", Map.of(),
                "{}"))).isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("ran longer than 50 ms"),
                "CEL 10^8 iterations against a 50 ms deadline");

        assertThat(took).isLessThan(GENEROUS);
    }

    @Test
    void celMatchesRunsARegexBombInLinearTime() {
        Conditions conditions = new Conditions(engine(ConditionLimits.defaults().withDeadline(GENEROUS)));

        Duration took = timed(() -> assertThat(conditions.evaluate("\"output.text.matches('" + BOMB + "')\"",
                BOMB_INPUT)).isFalse(), "CEL matches('" + BOMB + "') on 'a' x 40 + '!'");

        assertThat(took).isLessThan(GENEROUS);
    }

    @Test
    void jsonPathMatchesAndSchemaPatternsRunARegexBombInLinearTime() {
        Conditions conditions = new Conditions(engine(ConditionLimits.defaults().withDeadline(GENEROUS)));
        String output = BOMB_INPUT;

        Duration jsonPath = timed(() -> assertThat(conditions.evaluate("{\"type\": \"jsonpath\", \"query\": \"$.text\", "
                + "\"operator\": \"matches\", \"value\": \"" + BOMB + "\"}", output)).isFalse(),
                "JSONPath operator matches '" + BOMB + "' on 'a' x 40 + '!'");
        Duration schema = timed(() -> assertThat(conditions.evaluate("{\"type\": \"schema_validation\", \"schema\": "
                + "{\"properties\": {\"text\": {\"pattern\": \"" + BOMB + "\"}}}}", output)).isFalse(),
                "JSON Schema pattern '" + BOMB + "' on 'a' x 40 + '!'");

        assertThat(jsonPath).isLessThan(GENEROUS);
        assertThat(schema).isLessThan(GENEROUS);
    }

    @Test
    void theDeadlineStopsAJsonPathScanOfAHugeDocument() {
        ConditionEngine engine = engine(ConditionLimits.defaults().withDeadline(Duration.ofMillis(20)));
        CompiledCondition scan = new Conditions(engine).compile("""
                {"type": "jsonpath", "query": "$..[?(@.v > 5)].v", "operator": "count_gt", "value": 0}""");
        StringBuilder output = new StringBuilder("{\"rows\": [");
        for (int i = 0; i < 200_000; i++) {
            output.append(i == 0 ? "" : ",").append("{\"v\": ").append(i % 5).append(", \"w\": [1, 2]}");
        }
        ConditionContext huge = Conditions.context(output.append("]}").toString(), Map.of(), "{}");

        Duration took = timed(() -> assertThatThrownBy(() -> engine.evaluate(scan, huge))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("within 20 ms"),
                "JSONPath deep scan of 200,000 rows against a 20 ms deadline");

        assertThat(took).isLessThan(GENEROUS);
    }

    @Test
    void everyFailureIsAConditionEvaluationException() {
        Conditions conditions = new Conditions(ConditionEngine.withDefaults());

        assertThatThrownBy(() -> conditions.evaluate("\"output.a / output.b > 1\"", "{\"a\": 1, \"b\": 0}"))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("/ by zero");
        assertThatThrownBy(() -> conditions.evaluate("{\"type\": \"jsonpath\", \"query\": \"$.a[*]\", "
                + "\"operator\": \"avg_gt\", \"value\": 1}", "{\"a\": []}"))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("selects none");
        assertThatThrownBy(() -> conditions.evaluate("\"[1,2,3].map(x, x / 0).size() > 0\"", "{}"))
                .isInstanceOf(ConditionEvaluationException.class);
    }

    private static ConditionEngine engine(ConditionLimits limits) {
        return new ConditionEngine(limits, CasContent.NONE, Optional.empty());
    }

    /** {@code range.all(x0, range.all(x1, … true))}. */
    static String nested(int depth, String range) {
        String expression = "true";
        for (int i = 0; i < depth; i++) {
            expression = range + ".all(x" + i + ", " + expression + ")";
        }
        return expression;
    }

    private static String range(int size) {
        StringBuilder list = new StringBuilder("[");
        for (int i = 0; i < size; i++) {
            list.append(i == 0 ? "" : ",").append(i);
        }
        return list.append(']').toString();
    }

    private static Duration timed(Runnable check, String what) {
        long start = System.nanoTime();
        check.run();
        return report(what, start);
    }

    private static Duration report(String what, long start) {
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("Bounded evaluation: %s decided or stopped in %.1f ms%n", what, took.toNanos() / 1e6);
        return took;
    }
}
