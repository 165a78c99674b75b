package io.tokenflow.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class InputResolverTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNode INPUT = JSON.readTree("""
            {"city": "Oslo", "tags": ["a", "b", "c"], "nested": {"n": 7}}""");
    private static final Map<String, JsonNode> OUTPUTS = Map.of(
            "fetch", JSON.readTree("{\"items\": [{\"id\": 10}, {\"id\": 11}], \"count\": 2, \"3\": \"key three\"}"),
            "score", JSON.readTree("42"));

    private static JsonNode resolve(String template) {
        return InputResolver.resolve(JSON.readTree(template), INPUT, OUTPUTS::get);
    }

    @Test
    void aWholePlaceholderBecomesTheValueItNamesWithItsType() {
        assertThat(resolve("\"${workflow.input.city}\"")).isEqualTo(JSON.readTree("\"Oslo\""));
        assertThat(resolve("\"${ workflow.input.nested }\"")).isEqualTo(JSON.readTree("{\"n\": 7}"));
        assertThat(resolve("\"${nodes.fetch.output.count}\"")).isEqualTo(JSON.readTree("2"));
        assertThat(resolve("\"${nodes.score.output}\"")).isEqualTo(JSON.readTree("42"));
    }

    @Test
    void indexesArraysWrittenWithBracketsOrDotsAndReadsDigitKeysOfObjects() {
        assertThat(resolve("\"${nodes.fetch.output.items[1].id}\"")).isEqualTo(JSON.readTree("11"));
        assertThat(resolve("\"${nodes.fetch.output.items.0.id}\"")).isEqualTo(JSON.readTree("10"));
        assertThat(resolve("\"${workflow.input.tags[2]}\"")).isEqualTo(JSON.readTree("\"c\""));
        assertThat(resolve("\"${nodes.fetch.output.3}\"")).isEqualTo(JSON.readTree("\"key three\""));
    }

    @Test
    void missingValuesAreNullWholeAndEmptyInsideText() {
        assertThat(resolve("\"${nodes.fetch.output.items[5].id}\"").isNull()).isTrue();
        assertThat(resolve("\"${nodes.nowhere.output.x}\"").isNull()).isTrue();
        assertThat(resolve("\"${something.else}\"").isNull()).isTrue();
        assertThat(resolve("\"to ${workflow.input.city}: ${workflow.input.missing}${nodes.fetch.output.items[0]}\""))
                .isEqualTo(JSON.readTree("\"to Oslo: {\\\"id\\\":10}\""));
    }

    @Test
    void resolvesObjectsAndArraysPlaceholderByPlaceholderAndNamesTheNodesTheyRead() {
        String template = """
                {"where": "${workflow.input.city}", "ids": ["${nodes.fetch.output.items[0].id}", 3],
                 "label": "n=${nodes.score.output}"}""";

        assertThat(resolve(template)).isEqualTo(JSON.readTree("{\"where\": \"Oslo\", \"ids\": [10, 3], \"label\": \"n=42\"}"));
        assertThat(InputResolver.referencedNodes(JSON.readTree(template))).containsExactly("fetch", "score");
    }
}
