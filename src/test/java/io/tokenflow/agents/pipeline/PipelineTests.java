package io.tokenflow.agents.pipeline;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenflow.agents.AgentSettings;
import io.tokenflow.workers.WorkerSettings;
import io.tokenflow.workers.cel.CelEngine;
import io.tokenflow.workers.data.AggregateTaskHandler;
import io.tokenflow.workers.data.FilterTaskHandler;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The ten execute_pipeline primitives (http_request has its own tests) and the pipeline's limits. */
class PipelineTests {

    private static final String FLIGHTS = """
            [{"airline": "Delta", "price": 299, "departs": "01/05/2024 08:30", "code": "DL 123 NYC-LAX"},
             {"airline": "United", "price": 249, "departs": "02/05/2024 09:15", "code": "UA 9 NYC-SFO"},
             {"airline": "JetBlue", "price": 199.5, "departs": "03/05/2024 22:00", "code": "B6 77 NYC-LAX"},
             {"airline": "Delta", "price": 349, "code": "DL 5 JFK-LAX"}]""";

    private final Pipeline pipeline = pipeline(new AgentSettings.Pipeline(5, 10, null, 0, null, 0));

    @Test
    void sortsAndTakesTheTopRows() throws Exception {
        assertThat(run("[{\"step\":\"table_sort\",\"field\":\"price\"},{\"step\":\"top_k\",\"k\":2},"
                + "{\"step\":\"table_select\",\"fields\":[\"airline\",\"price\"]}]", FLIGHTS))
                .isEqualTo(json("[{\"airline\":\"JetBlue\",\"price\":199.5},{\"airline\":\"United\",\"price\":249}]"));
        assertThat(run("[{\"step\":\"top_k\",\"k\":1,\"field\":\"price\"}]", FLIGHTS).at("/0/price").asInt())
                .isEqualTo(349);
        assertThat(run("[{\"step\":\"table_sort\",\"field\":\"departs\",\"order\":\"desc\"}]", FLIGHTS)
                .at("/3/airline").asString()).as("rows without the field come last").isEqualTo("Delta");
    }

    @Test
    void filtersWithCelOrAFieldTest() throws Exception {
        assertThat(run("[{\"step\":\"table_filter\",\"condition\":\"item.price < 250\"}]", FLIGHTS).size())
                .isEqualTo(2);
        assertThat(run("[{\"step\":\"table_filter\",\"condition\":{\"field\":\"airline\",\"op\":\"in\","
                + "\"value\":[\"Delta\"]}}]", FLIGHTS).size()).isEqualTo(2);
        assertThat(run("[{\"step\":\"table_filter\",\"condition\":{\"field\":\"code\",\"op\":\"contains\","
                + "\"value\":\"LAX\"}},{\"step\":\"table_filter\",\"condition\":{\"field\":\"price\",\"op\":\">=\","
                + "\"value\":300}}]", FLIGHTS)).isEqualTo(json("[" + json(FLIGHTS).get(3) + "]"));
        assertThatThrownBy(() -> run("[{\"step\":\"table_filter\",\"condition\":\"item.price +\"}]", FLIGHTS))
                .isInstanceOf(PipelineException.class).hasMessageStartingWith("Step 0 (table_filter): ")
                .hasMessageContaining("valid CEL expression");
    }

    @Test
    void selectsAndRenamesNestedFields() throws Exception {
        assertThat(run("[{\"step\":\"table_select\",\"fields\":{\"who\":\"person.name\",\"age\":\"age\"}}]",
                "{\"items\":[{\"person\":{\"name\":\"Ada\"},\"age\":36,\"secret\":1},{\"age\":2}]}"))
                .isEqualTo(json("[{\"who\":\"Ada\",\"age\":36},{\"age\":2}]"));
    }

    @Test
    void groupsRowsWithAggregations() throws Exception {
        assertThat(run("[{\"step\":\"groupby\",\"by\":\"airline\",\"aggregations\":[{\"op\":\"count\"},"
                + "{\"op\":\"max\",\"field\":\"price\",\"as\":\"highest\"}]}]", FLIGHTS))
                .isEqualTo(json("[{\"airline\":\"Delta\",\"count\":2,\"highest\":349},"
                        + "{\"airline\":\"United\",\"count\":1,\"highest\":249},"
                        + "{\"airline\":\"JetBlue\",\"count\":1,\"highest\":199.5}]"));
    }

    @Test
    void joinsWithAnInlineTableOrAnEarlierNodesOutput() throws Exception {
        String carriers = "[{\"id\":\"Delta\",\"alliance\":\"SkyTeam\"},{\"id\":\"United\",\"alliance\":\"Star\"}]";
        JsonNode inner = run("[{\"step\":\"join\",\"with\":" + carriers + ",\"on\":{\"left\":\"airline\","
                + "\"right\":\"id\"}}]", FLIGHTS);
        assertThat(inner.size()).isEqualTo(3);
        assertThat(inner.at("/1/alliance").asString()).isEqualTo("Star");
        JsonNode left = pipeline.run(json("[{\"step\":\"join\",\"with_node\":\"carriers\",\"with_path\":\"body\","
                + "\"on\":{\"left\":\"airline\",\"right\":\"id\"},\"how\":\"left\"}]"), json(FLIGHTS),
                Map.of("carriers", json("{\"body\":" + carriers + "}")));
        assertThat(left.size()).isEqualTo(4);
        assertThat(left.at("/2/alliance").isMissingNode()).isTrue();
        assertThat(run("[{\"step\":\"join\",\"with\":[{\"n\":1.0,\"x\":\"a\"}],\"on\":\"n\"}]", "[{\"n\":1}]"))
                .as("numbers join by value").isEqualTo(json("[{\"n\":1,\"x\":\"a\"}]"));
        assertThatThrownBy(() -> pipeline.run(json("[{\"step\":\"join\",\"with_node\":\"nope\",\"on\":\"id\"}]"),
                json("[]"), Map.of("carriers", json("[]")))).hasMessageContaining("[carriers]");
    }

    @Test
    void refusesAJoinThatWouldGrowPastTheRowLimit() {
        String ten = "[" + String.join(",", java.util.Collections.nCopies(10, "{\"k\":1}")) + "]";
        assertThatThrownBy(() -> run("[{\"step\":\"join\",\"with\":" + ten + ",\"on\":\"k\"}]", ten))
                .isInstanceOf(PipelineException.class).hasMessageContaining("at most 10 rows");
    }

    @Test
    void transformsWithACelExpression() throws Exception {
        assertThat(run("[{\"step\":\"jq_transform\",\"expression\":\"input.filter(r, r.price > 300)"
                + ".map(r, {'who': r.airline, 'cost': r.price * 2})\"}]", FLIGHTS))
                .isEqualTo(json("[{\"who\":\"Delta\",\"cost\":698}]"));
    }

    @Test
    void extractsWithLinearTimeRegularExpressions() throws Exception {
        JsonNode rows = run("[{\"step\":\"regex_extract\",\"field\":\"code\",\"pattern\":\"(?P<route>[A-Z]{3}-[A-Z]{3})\","
                + "\"group\":\"route\",\"into\":\"route\"}]", FLIGHTS);
        assertThat(rows.at("/1/route").asString()).isEqualTo("NYC-SFO");
        assertThat(rows.at("/1/airline").asString()).isEqualTo("United");
        assertThat(run("[{\"step\":\"regex_extract\",\"pattern\":\"\\\\d+\",\"all\":true}]", "\"a1 b22 c333\""))
                .isEqualTo(json("[\"1\",\"22\",\"333\"]"));
        String evil = "\"" + "a".repeat(50_000) + "!\"";
        assertThat(run("[{\"step\":\"regex_extract\",\"pattern\":\"(a+)+$\"}]", evil).isNull())
                .as("a catastrophic pattern for backtracking engines finishes at once").isTrue();
        assertThatThrownBy(() -> run("[{\"step\":\"regex_extract\",\"pattern\":\"(a)\\\\1\"}]", "\"aa\""))
                .hasMessageContaining("RE2 pattern");
    }

    @Test
    void parsesDatesIntoIso() throws Exception {
        JsonNode rows = run("[{\"step\":\"parse_date\",\"field\":\"departs\",\"format\":\"dd/MM/yyyy HH:mm\","
                + "\"timezone\":\"Europe/Oslo\",\"into\":\"departs_at\"}]", FLIGHTS);
        assertThat(rows.at("/0/departs_at").asString()).isEqualTo("2024-05-01T06:30:00Z");
        assertThat(rows.at("/3/departs_at").isNull()).isTrue();
        assertThat(run("[{\"step\":\"parse_date\"}]", "\"Tue, 3 Jun 2008 11:05:30 GMT\"").asString())
                .isEqualTo("2008-06-03T11:05:30Z");
        assertThat(run("[{\"step\":\"parse_date\"}]", "\"2024-02-29\"").asString()).isEqualTo("2024-02-29");
        assertThat(run("[{\"step\":\"parse_date\"}]", "0").asString()).isEqualTo("1970-01-01T00:00:00Z");
        assertThatThrownBy(() -> run("[{\"step\":\"parse_date\"}]", "\"next tuesday\""))
                .hasMessageContaining("Expected a date").hasMessageContaining("next tuesday");
    }

    @Test
    void refusesUnknownStepsAndTooLongPipelines() {
        assertThatThrownBy(() -> run("[{\"step\":\"delete_database\"}]", "[]"))
                .hasMessageContaining("Step 0: expected \"step\" among [").hasMessageContaining("parse_date");
        assertThatThrownBy(() -> run("[" + String.join(",", java.util.Collections.nCopies(6,
                "{\"step\":\"top_k\",\"k\":1}")) + "]", "[]")).hasMessageContaining("at most 5 steps");
        assertThatThrownBy(() -> run("[{\"step\":\"table_sort\",\"field\":\"x\"}]", "{\"a\":1}"))
                .hasMessageContaining("Expected a table");
        assertThatThrownBy(() -> run("[{\"step\":\"top_k\",\"k\":-1}]", "[]"))
                .hasMessageContaining("whole number >= 0");
    }

    @Test
    void offersAllTenPrimitives() {
        assertThat(pipeline.primitives().keySet()).containsExactly("groupby", "http_request", "join", "jq_transform",
                "parse_date", "regex_extract", "table_filter", "table_select", "table_sort", "top_k");
    }

    private JsonNode run(String steps, String data) throws PipelineException {
        return pipeline.run(json(steps), json(data), Map.of());
    }

    static Pipeline pipeline(AgentSettings.Pipeline limits) {
        AgentSettings settings = new AgentSettings(null, 1000, null, limits, null);
        CelEngine cel = new CelEngine(new WorkerSettings.Cel(Duration.ofMillis(200), 10_000, 100));
        return new Pipeline(List.of(new TableSortStep(), new TopKStep(), new TableSelectStep(),
                new TableFilterStep(new FilterTaskHandler(cel)), new GroupByStep(new AggregateTaskHandler(cel)),
                new JoinStep(), new JqTransformStep(cel), new RegexExtractStep(), new ParseDateStep(),
                new HttpRequestStep(settings, JsonMapper.builder().build())), settings);
    }
}
