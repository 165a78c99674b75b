package io.tokenflow.engine.conditions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The seed's condition examples (seed 003, "Condition Evaluation Engine"), decided by the engine. */
class ConditionEvaluationTests {

    private final Conditions conditions = new Conditions(ConditionEngine.withDefaults());

    @Test
    void leadScoringRulesReadTheOutputAndAnEarlierNode() {
        String enterprise = """
                {"type": "cel", "expression": "output.score >= 80 && ctx.enrich_data.output.revenue > 100000"}""";
        Map<String, String> rich = Map.of("enrich_data", "{\"revenue\": 250000}");
        Map<String, String> small = Map.of("enrich_data", "{\"revenue\": 90000}");

        assertThat(conditions.evaluate(enterprise, "{\"score\": 85}", rich, "{}")).isTrue();
        assertThat(conditions.evaluate(enterprise, "{\"score\": 85}", small, "{}")).isFalse();
        assertThat(conditions.evaluate(enterprise, "{\"score\": 79.5}", rich, "{}")).isFalse();
        assertThat(conditions.compile(enterprise).contextNodes()).containsExactly("enrich_data");
        assertThat(conditions.evaluate("{\"type\": \"cel\", \"expression\": \"output.score >= 50\"}", "{\"score\": 50}"))
                .isTrue();
        assertThat(conditions.evaluate("{\"type\": \"cel\", \"expression\": \"output.score < 50\"}", "{\"score\": 50}"))
                .isFalse();
    }

    @Test
    void celSeesTheRunInputAndTheSeedOneStringForm() {
        assertThat(conditions.evaluate("\"output.x > 3 && input.limit == 'high'\"", "{\"x\": 4}", Map.of(),
                "{\"limit\": \"high\"}")).isTrue();
        assertThat(conditions.compile("\"output.x > 3\"").definition())
                .isEqualTo(Conditions.json("{\"type\": \"cel\", \"expression\": \"output.x > 3\"}"));
    }

    @Test
    void celRetryConditionOfTheSeed() {
        String retry = "{\"type\": \"cel\", \"expression\": \"output.status != 200 && output.retry_count < 5\"}";

        assertThat(conditions.evaluate(retry, "{\"status\": 503, \"retry_count\": 2}")).isTrue();
        assertThat(conditions.evaluate(retry, "{\"status\": 200, \"retry_count\": 2}")).isFalse();
    }

    @Test
    void jsonPathCountsFilteredMatchesWithLength() {
        String enterprise = """
                {"type": "jsonpath", "query": "$.data.customers[?(@.tier == 'enterprise')].length()",
                 "operator": ">", "value": 0}""";

        assertThat(conditions.evaluate(enterprise, """
                {"data": {"customers": [{"tier": "smb"}, {"tier": "enterprise"}]}}""")).isTrue();
        assertThat(conditions.evaluate(enterprise, """
                {"data": {"customers": [{"tier": "smb"}]}}""")).isFalse();
    }

    @Test
    void jsonPathSumsTheSelectedAmounts() {
        String large = """
                {"type": "jsonpath", "query": "$.transactions[*].amount", "operator": "sum_gt", "value": 10000}""";

        assertThat(conditions.evaluate(large, "{\"transactions\": [{\"amount\": 6000}, {\"amount\": 4000.5}]}"))
                .isTrue();
        assertThat(conditions.evaluate(large, "{\"transactions\": [{\"amount\": 6000}, {\"amount\": 4000}]}"))
                .isFalse();
        assertThat(conditions.evaluate(large, "{\"transactions\": []}")).isFalse();
    }

    @Test
    void jsonPathInTestsMembershipAndMissingValuesAreNotMembers() {
        String retryable = """
                {"type": "jsonpath", "query": "$.error_code", "operator": "in",
                 "value": ["TIMEOUT", "RATE_LIMIT", "TEMP_ERROR"]}""";

        assertThat(conditions.evaluate(retryable, "{\"error_code\": \"RATE_LIMIT\"}")).isTrue();
        assertThat(conditions.evaluate(retryable, "{\"error_code\": \"CARD_DECLINED\"}")).isFalse();
        assertThat(conditions.evaluate(retryable, "{\"status\": \"success\"}")).isFalse();
    }

    @Test
    void jsonPathErrorCountOfTheCompositeExample() {
        String fewErrors = "{\"type\": \"jsonpath\", \"query\": \"$.errors.length()\", \"operator\": \"<\", \"value\": 3}";

        assertThat(conditions.evaluate(fewErrors, "{\"errors\": [\"a\", \"b\"]}")).isTrue();
        assertThat(conditions.evaluate(fewErrors, "{\"errors\": [\"a\", \"b\", \"c\"]}")).isFalse();
    }

    @Test
    void jsonPathExistsMatchesAndContextSource() {
        assertThat(conditions.evaluate("{\"type\": \"jsonpath\", \"query\": \"$.id\", \"operator\": \"matches\", "
                + "\"value\": \"^ord-[0-9]+$\"}", "{\"id\": \"ord-42\"}")).isTrue();
        assertThat(conditions.evaluate("{\"type\": \"jsonpath\", \"query\": \"$.id\", \"operator\": \"exists\"}",
                "{}")).isFalse();
        String fromContext = """
                {"type": "jsonpath", "source": "context", "node": "forecast", "query": "$.regions[*].revenue",
                 "operator": "max_gte", "value": 5}""";
        assertThat(conditions.evaluate(fromContext, "{}", Map.of("forecast", "{\"regions\": [{\"revenue\": 3}, "
                + "{\"revenue\": 5}]}"), "{}")).isTrue();
        assertThat(conditions.compile(fromContext).contextNodes()).containsExactly("forecast");
    }

    @Test
    void schemaValidationLoopsWhileTheOutputDoesNotMatch() {
        String loopWhileInvalid = """
                {"type": "schema_validation", "invert": true,
                 "schema": {"type": "object", "required": ["status", "data"],
                            "properties": {"status": {"const": "success"}, "data": {"type": "array", "minItems": 1}}}}""";

        assertThat(conditions.evaluate(loopWhileInvalid, "{\"status\": \"pending\", \"data\": []}")).isTrue();
        assertThat(conditions.evaluate(loopWhileInvalid, "{\"status\": \"success\", \"data\": [1]}")).isFalse();
        assertThat(conditions.evaluate(loopWhileInvalid.replace("\"invert\": true,", ""),
                "{\"status\": \"success\", \"data\": [1]}")).isTrue();
    }

    @Test
    void schemaRefIsReadFromCas() {
        String reference = "cas://sha256:" + "a".repeat(64);
        CasContent cas = ref -> ref.equals(reference)
                ? java.util.Optional.of("{\"required\": [\"id\"]}".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                : java.util.Optional.empty();
        Conditions withCas = new Conditions(new ConditionEngine(ConditionLimits.defaults(), cas,
                java.util.Optional.empty()));
        String condition = "{\"type\": \"schema_validation\", \"schema_ref\": \"" + reference + "\"}";

        assertThat(withCas.evaluate(condition, "{\"id\": 1}")).isTrue();
        assertThat(withCas.evaluate(condition, "{\"name\": \"x\"}")).isFalse();
    }

    @Test
    void crossNodeComparisonComparesTheOutputWithAnEarlierNode() {
        String improved = """
                {"type": "cross_node_comparison",
                 "left": {"source": "current", "path": "output.final_score"}, "operator": ">",
                 "right": {"source": "context", "node": "initial_score", "path": "output.score"}}""";
        Map<String, String> initial = Map.of("initial_score", "{\"score\": 70}");

        assertThat(conditions.evaluate(improved, "{\"final_score\": 71}", initial, "{}")).isTrue();
        assertThat(conditions.evaluate(improved, "{\"final_score\": 70.0}", initial, "{}")).isFalse();
        assertThat(conditions.compile(improved).contextNodes()).containsExactly("initial_score");
    }

    @Test
    void crossNodeExpressionFormUsesCurrentAndCtx() {
        String growth = """
                {"type": "cross_node_comparison", "expression":
                 "(current.output.revenue - ctx.forecast.output.predicted_revenue) / ctx.forecast.output.predicted_revenue > 0.1"}""";
        Map<String, String> forecast = Map.of("forecast", "{\"predicted_revenue\": 1000.0}");

        assertThat(conditions.evaluate(growth, "{\"revenue\": 1200.0}", forecast, "{}")).isTrue();
        assertThat(conditions.evaluate(growth, "{\"revenue\": 1050.0}", forecast, "{}")).isFalse();
        assertThat(conditions.compile(growth).contextNodes()).containsExactly("forecast");
    }

    @Test
    void compositeOrOfTheSeedWithALiteralSide() {
        String either = """
                {"type": "composite", "operator": "OR", "conditions": [
                  {"type": "cel", "expression": "output.score >= 80"},
                  {"type": "cross_node_comparison",
                   "left": {"source": "context", "node": "referral_check", "path": "output.is_referral"},
                   "operator": "==", "right": {"value": true}}]}""";

        assertThat(conditions.evaluate(either, "{\"score\": 10}", Map.of("referral_check", "{\"is_referral\": true}"),
                "{}")).isTrue();
        assertThat(conditions.evaluate(either, "{\"score\": 10}", Map.of("referral_check", "{\"is_referral\": false}"),
                "{}")).isFalse();
        assertThat(conditions.evaluate(either, "{\"score\": 90}", Map.of(), "{}"))
                .as("OR stops at the first true member, before reading the missing referral_check").isTrue();
    }

    @Test
    void paymentRetryLoopConditionCombinesThreeTypes() {
        String retry = """
                {"type": "composite", "operator": "AND", "conditions": [
                  {"type": "cel", "expression": "output.status != 'success'"},
                  {"type": "jsonpath", "query": "$.error_code", "operator": "in",
                   "value": ["TIMEOUT", "RATE_LIMIT", "TEMP_ERROR"]},
                  {"type": "cross_node_comparison",
                   "left": {"source": "current", "path": "output.amount"}, "operator": "==",
                   "right": {"source": "context", "node": "calculate_total", "path": "output.final_amount"}}]}""";
        Map<String, String> total = Map.of("calculate_total", "{\"final_amount\": 1500}");

        assertThat(conditions.evaluate(retry, "{\"status\": \"failed\", \"error_code\": \"TIMEOUT\", \"amount\": 1500.0}",
                total, "{}")).isTrue();
        assertThat(conditions.evaluate(retry, "{\"status\": \"failed\", \"error_code\": \"DECLINED\", \"amount\": 1500}",
                total, "{}")).isFalse();
        assertThat(conditions.evaluate(retry, "{\"status\": \"success\", \"amount\": 1500}", Map.of(), "{}"))
                .as("AND stops at the first false member").isFalse();
        assertThat(conditions.compile(retry).contextNodes()).containsExactly("calculate_total");
    }

    @Test
    void nestedCompositeWithNot() {
        String nested = """
                {"type": "composite", "operator": "AND", "conditions": [
                  {"type": "composite", "operator": "NOT", "conditions": [
                    {"type": "cel", "expression": "output.blocked"}]},
                  {"type": "composite", "operator": "OR", "conditions": [
                    {"type": "jsonpath", "query": "$.tags[*]", "operator": "contains", "value": "vip"},
                    {"type": "cel", "expression": "input.force"}]}]}""";

        assertThat(conditions.evaluate(nested, "{\"blocked\": false, \"tags\": [\"vip\"]}", Map.of(), "{\"force\": false}"))
                .isTrue();
        assertThat(conditions.evaluate(nested, "{\"blocked\": true, \"tags\": [\"vip\"]}", Map.of(), "{\"force\": true}"))
                .isFalse();
        assertThat(conditions.evaluate(nested, "{\"blocked\": false, \"tags\": []}", Map.of(), "{\"force\": true}"))
                .isTrue();
    }

    @Test
    void aConditionThatCannotBeDecidedIsAnErrorWithAClearMessage() {
        assertThatThrownBy(() -> conditions.evaluate("{\"type\": \"cel\", \"expression\": \"output.missing > 1\"}",
                "{}")).isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("output.missing > 1")
                .hasMessageContaining("missing");
        assertThatThrownBy(() -> conditions.evaluate("{\"type\": \"cel\", \"expression\": \"output.n\"}", "{\"n\": 3}"))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("to give true or false, but it "
                        + "gave 3");
        assertThatThrownBy(() -> conditions.evaluate("{\"type\": \"cel\", \"expression\": "
                + "\"ctx.enrich_data.output.revenue > 1\"}", "{}"))
                .isInstanceOf(ConditionEvaluationException.class).hasMessageContaining("enrich_data");
        assertThatThrownBy(() -> conditions.evaluate("{\"type\": \"jsonpath\", \"query\": \"$.n\", \"operator\": \">\", "
                + "\"value\": 1}", "{\"n\": \"many\"}")).isInstanceOf(ConditionEvaluationException.class)
                .hasMessage("Expected JSONPath $.n on the output to be a number to compare with > 1, but it is \"many\"");
        assertThatThrownBy(() -> conditions.evaluate("""
                {"type": "cross_node_comparison", "left": {"source": "context", "node": "forecast", "path": "output.x"},
                 "operator": "==", "right": {"value": 1}}""", "{}"))
                .isInstanceOf(ConditionEvaluationException.class)
                .hasMessageContaining("Expected node 'forecast' to have an output for this condition");
    }

    @Test
    void contextNodesSurviveAJsonRoundTrip() {
        CompiledCondition compiled = conditions.compile("""
                {"type": "composite", "operator": "AND", "conditions": [
                  {"type": "cel", "expression": "ctx.enrich_data.output.revenue > 1 && has(ctx.fetch.output.x)"},
                  {"type": "schema_validation", "source": "context", "node": "forecast", "schema": {"type": "object"}},
                  {"type": "cross_node_comparison", "left": {"source": "current", "path": "output.a"},
                   "operator": "==", "right": {"source": "context", "node": "calculate_total", "path": "output.b"}}]}""");
        String stored = Conditions.JSON.writeValueAsString(compiled);

        CompiledCondition readBack = Conditions.JSON.readValue(stored, CompiledCondition.class);

        assertThat(compiled.contextNodes()).containsExactlyInAnyOrder("enrich_data", "fetch", "forecast",
                "calculate_total");
        assertThat(readBack.contextNodes()).isEqualTo(compiled.contextNodes());
        assertThat(readBack.definition()).isEqualTo(compiled.definition());
        assertThat(Conditions.JSON.readTree(stored)).isEqualTo(compiled.definition());
    }
}
