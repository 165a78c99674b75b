package io.tokenflow.engine.conditions.python;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.tokenflow.engine.conditions.CasContent;
import io.tokenflow.engine.conditions.CompiledCondition;
import io.tokenflow.engine.conditions.ConditionCompiler;
import io.tokenflow.engine.conditions.ConditionContext;
import io.tokenflow.engine.conditions.ConditionEngine;
import io.tokenflow.engine.conditions.ConditionEvaluationException;
import io.tokenflow.engine.conditions.ConditionLimits;
import io.tokenflow.engine.conditions.PythonRuntime;
import io.tokenflow.engine.dsl.Diagnostics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** python_sandbox conditions on GraalPy (only with -Ppython): the seed's example, and what the sandbox denies. */
class GraalPythonRuntimeTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SEED_EXAMPLE = """
            def evaluate(output, context):
                revenue = output.get('revenue', 0)
                previous_revenue = context.get('last_month', {}).get('output', {}).get('revenue', 0)
                growth_rate = (revenue - previous_revenue) / previous_revenue if previous_revenue > 0 else 0
                if growth_rate > 0.2 and output.get('churn_rate', 1) < 0.05:
                    return True
                return False
            """;

    private static ConditionEngine engine;
    private static PythonRuntime python;

    @BeforeAll
    static void start() {
        long start = System.nanoTime();
        python = PythonRuntime.discover().orElseThrow();
        engine = new ConditionEngine(ConditionLimits.defaults(), CasContent.NONE);
        System.out.printf("GraalPy condition runtime started in %d ms%n", (System.nanoTime() - start) / 1_000_000);
    }

    @Test
    void decidesTheSeedExampleThroughTheConditionEngine() {
        CompiledCondition condition = compile(SEED_EXAMPLE);
        long start = System.nanoTime();

        assertThat(engine.evaluate(condition, context("{\"revenue\": 130, \"churn_rate\": 0.01}",
                Map.of("last_month", "{\"revenue\": 100}")))).isTrue();
        assertThat(engine.evaluate(condition, context("{\"revenue\": 110, \"churn_rate\": 0.01}",
                Map.of("last_month", "{\"revenue\": 100}")))).isFalse();
        System.out.printf("Python condition: 2 evaluations in %d ms%n", (System.nanoTime() - start) / 1_000_000);
        assertThat(condition.contextNodes()).contains("last_month");
    }

    @Test
    void refusesCodeWithoutEvaluateOrWithASyntaxError() {
        assertThat(python.check("def decide(output, context):\n    return True\n")).hasValueSatisfying(problem ->
                assertThat(problem).contains("no function evaluate"));
        assertThat(python.check("def evaluate(output, context)\n    return True\n")).hasValueSatisfying(problem ->
                assertThat(problem).contains("SyntaxError"));
    }

    @Test
    void deniesFilesNetworkProcessesAndHostAccess() {
        assertDenied("open('/etc/hostname').read() == ''");
        assertDenied("__import__('socket').create_connection(('127.0.0.1', 5432)) is None");
        assertDenied("__import__('subprocess').run(['true']).returncode == 0");
        assertDenied("__import__('os').system('true') == 0");
        assertDenied("__import__('java').type('java.lang.System').exit(3)");
    }

    @Test
    void aWatchdogStopsAnEndlessLoopAtTheTimeLimit() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> python.evaluate("def evaluate(output, context):\n    while True:\n        pass\n",
                "{}", "{}", "{}", Duration.ofMillis(300), 50L << 20))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("ran longer than 300 ms");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("Python endless loop stopped after %d ms (limit 300 ms)%n", took.toMillis());
        assertThat(took).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aWatchdogStopsCodeThatAllocatesTooMuch() {
        assertThatThrownBy(() -> python.evaluate("def evaluate(output, context):\n    x = []\n    while True:\n"
                        + "        x.append('a' * 10000)\n", "{}", "{}", "{}", Duration.ofSeconds(30), 20L << 20))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("allocated more than 20 MB");
    }

    private static void assertDenied(String expression) {
        String code = "def evaluate(output, context):\n    return " + expression + "\n";
        assertThatThrownBy(() -> python.evaluate(code, "{}", "{}", "{}", Duration.ofSeconds(10), 50L << 20))
                .as(expression).isInstanceOf(ConditionEvaluationException.class);
    }

    private static CompiledCondition compile(String code) {
        ObjectNodeHolder holder = new ObjectNodeHolder(code);
        Diagnostics diagnostics = new Diagnostics();
        return engine.compile(holder.condition, new ConditionCompiler.Scope("score", "/nodes/0/loop/condition",
                Set.of("score", "last_month")), diagnostics).orElseThrow(() -> new AssertionError(diagnostics.all()));
    }

    private static ConditionContext context(String output, Map<String, String> outputs) {
        Map<String, JsonNode> nodes = new java.util.HashMap<>();
        outputs.forEach((node, value) -> nodes.put(node, JSON.readTree(value)));
        return new ConditionContext(JSON.readTree(output), nodes, null);
    }

    private static final class ObjectNodeHolder {
        final JsonNode condition;

        ObjectNodeHolder(String code) {
            var node = JSON.createObjectNode();
            node.put("type", "python_sandbox");
            node.put("code", code);
            node.put("timeout_ms", 1000);
            this.condition = node;
        }
    }
}
