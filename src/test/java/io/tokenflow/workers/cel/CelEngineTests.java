package io.tokenflow.workers.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenflow.workers.WorkerSettings;

class CelEngineTests {

    private final CelEngine cel = new CelEngine(new WorkerSettings.Cel(Duration.ofMillis(100), 1000, 10));

    @Test
    void evaluatesOverInputAndToken() throws ExpressionException {
        Map<String, Object> input = Map.of("n", 3L, "items", List.of(1L, 2L, 3L));

        assertThat(cel.evaluate("input.n * 2 + size(input.items)", Map.of("input", input))).isEqualTo(9L);
        assertThat(cel.evaluate("token + '!'", Map.of("token", "t1"))).isEqualTo("t1!");
        assertThat(cel.evaluate("input.items.filter(x, x > 1)", Map.of("input", input))).isEqualTo(List.of(2L, 3L));
    }

    @Test
    void comparesIntegersWithDoubles() throws ExpressionException {
        assertThat(cel.evaluate("input.a < input.b", Map.of("input", Map.of("a", 1L, "b", 1.5)))).isEqualTo(true);
    }

    @Test
    void compilesEachExpressionOnce() throws ExpressionException {
        assertThat(cel.compile("1 + 1")).isSameAs(cel.compile("1 + 1"));
    }

    @Test
    void reportsACompileErrorNamingTheExpression() {
        assertThatThrownBy(() -> cel.evaluate("input.a +", Map.of("input", Map.of())))
                .isInstanceOf(ExpressionException.class)
                .hasMessageContaining("Expected 'input.a +' to be a valid CEL expression, but");
    }

    @Test
    void reportsAnEvaluationErrorNamingTheExpression() {
        assertThatThrownBy(() -> cel.evaluate("input.missing", Map.of("input", Map.of())))
                .isInstanceOf(ExpressionException.class)
                .hasMessageContaining("Expected CEL expression 'input.missing' to evaluate, but")
                .hasMessageContaining("missing");
    }

    @Test
    void stopsARunawayComprehensionAtTheIterationLimit() {
        CelEngine patient = new CelEngine(new WorkerSettings.Cel(Duration.ofSeconds(10), 100, 10));

        assertThatThrownBy(() -> patient.evaluate(nested(8), Map.of()))
                .isInstanceOf(ExpressionException.class)
                .hasMessageContaining("Iteration budget exceeded");
    }

    @Test
    void stopsARunawayComprehensionAtTheDeadlineWhenIterationsAreUnbounded() {
        CelEngine generous = new CelEngine(new WorkerSettings.Cel(Duration.ofMillis(50), Integer.MAX_VALUE, 10));
        long start = System.nanoTime();

        assertThatThrownBy(() -> generous.evaluate(nested(14), Map.of()))
                .isInstanceOf(ExpressionException.class)
                .hasMessageContaining("ran longer than 50 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void refusesExpressionsNestedBeyondTheParserLimit() {
        String deep = "(".repeat(300) + "1" + ")".repeat(300);

        assertThatThrownBy(() -> cel.evaluate(deep, Map.of())).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("to be a valid CEL expression");
    }

    /** {@code [1,2,3].all(x0, [1,2,3].all(x1, … true))}: 3^depth iterations. */
    static String nested(int depth) {
        String expression = "true";
        for (int i = 0; i < depth; i++) {
            expression = "[1,2,3].all(x" + i + ", " + expression + ")";
        }
        return expression;
    }
}
