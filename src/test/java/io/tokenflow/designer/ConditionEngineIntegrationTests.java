package io.tokenflow.designer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tokenflow.IntegrationTest;
import io.tokenflow.cas.CasStore;
import io.tokenflow.engine.conditions.CompiledCondition;
import io.tokenflow.engine.conditions.ConditionCompiler;
import io.tokenflow.engine.conditions.ConditionContext;
import io.tokenflow.engine.conditions.ConditionEvaluator;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.tenancy.CurrentTenant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The application's condition engine: one bean compiles and evaluates, with schemas read from the real CAS. */
@IntegrationTest
class ConditionEngineIntegrationTests {

    @Autowired
    ConditionCompiler compiler;

    @Autowired
    ConditionEvaluator evaluator;

    @Autowired
    CasStore cas;

    @Autowired
    ConditionSettings settings;

    @Autowired
    JsonMapper json;

    @Test
    void compilesAndEvaluatesASchemaRefStoredInCas() {
        String reference = cas.putJson(CurrentTenant.DEFAULT,
                json.readTree("{\"type\": \"object\", \"required\": [\"status\"]}"));
        JsonNode condition = json.readTree("{\"type\": \"schema_validation\", \"schema_ref\": \"" + reference + "\"}");
        Diagnostics diagnostics = new Diagnostics();

        CompiledCondition compiled = compiler.compile(condition,
                new ConditionCompiler.Scope("check", "/nodes/0/loop/condition", Set.of("check")), diagnostics)
                .orElseThrow(() -> new AssertionError(diagnostics.all().toString()));

        assertThat(evaluator).isSameAs(compiler);
        assertThat(evaluator.evaluate(compiled, new ConditionContext(json.readTree("{\"status\": \"ok\"}"), Map.of(),
                null))).isTrue();
        assertThat(evaluator.evaluate(compiled, new ConditionContext(json.readTree("{}"), Map.of(), null))).isFalse();
    }

    @Test
    void limitsComeFromTokenflowConditions() {
        assertThat(settings.limits().deadline()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.limits().maxIterations()).isEqualTo(10_000);
        assertThat(settings.limits().maxComprehensionDepth()).isEqualTo(3);
        assertThat(settings.limits().pythonTimeout()).isEqualTo(Duration.ofSeconds(1));
    }
}
