package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

import io.tokenflow.IntegrationTest;
import io.tokenflow.cas.CasStore;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The step that completes a join puts the join's token on its task stream itself, its input the dependencies' outputs
 * merged by id; only a join whose outputs are (or look like) CAS references, or whose input would be too large to
 * travel inline, is left to the coordinator, which announces it on the completions stream. With the built-in workers
 * routing in-process, nothing else passes through the completions stream, so its last id tells the two apart.
 */
@IntegrationTest
@TestPropertySource(properties = {"tokenflow.coordinator.route-local-completions=true",
        "tokenflow.workers.claim-idle=500ms", "tokenflow.workers.claim-interval=200ms"})
@Import(RecordedFunction.class) // the same application context as those tests
class JoinDispatchIntegrationTests {

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired CasStore cas;

    EngineHarness engine;
    StreamIds ids;

    @BeforeEach
    void setUp() {
        engine = new EngineHarness(creating, starting, jdbc);
        ids = new StreamIds(redis.commands());
    }

    @Test
    void theStepThatCompletesAJoinDispatchesItsTokenWithTheMergedOutputs() {
        String workflow = engine.workflow("engine/local-diamond");
        List<String> completions = StreamIds.completionsStreams(keys);
        String before = ids.quietLastId(completions);

        UUID run = engine.start(workflow, "{\"text\": \"hi \\\"there\\\" é\"}");

        engine.awaitStatus(run, "COMPLETED");
        assertThat(ids.lastId(completions)).as("no join entry went through the coordinator").isEqualTo(before);
        assertThat(engine.output(run, "D")).isEqualTo(EngineHarness.JSON.readTree(
                "{\"B\": {\"text\": \"hi \\\"there\\\" é\", \"from\": \"b\"},"
                        + " \"C\": {\"text\": \"hi \\\"there\\\" é\", \"from\": \"c\"}}"));
        assertThat(engine.completedNodes(run)).hasSize(4).containsOnlyOnce("A", "B", "C", "D");
        assertThat(engine.eventTypes(run)).containsOnlyOnce("join.completed");
    }

    @Test
    void anOutputThatLooksLikeACasReferenceLeavesTheJoinToTheCoordinator() {
        String workflow = engine.workflow("engine/local-diamond-ref");
        List<String> completions = StreamIds.completionsStreams(keys);
        String before = ids.quietLastId(completions);

        UUID run = engine.start(workflow, "{\"text\": \"hi\"}");

        engine.awaitStatus(run, "COMPLETED");
        assertThat(ids.lastId(completions)).as("the join went through the coordinator").isNotEqualTo(before);
        assertThat(engine.output(run, "D")).isEqualTo(EngineHarness.JSON.readTree(
                "{\"B\": {\"text\": \"hi\", \"from\": \"b\"}, \"C\": {\"text\": \"hi\", \"$ref\": \"c\"}}"));
    }

    @Test
    void aJoinInputTooLargeToTravelInlineIsLeftToTheCoordinatorWhichStoresItInCas() {
        String workflow = engine.workflow("engine/local-diamond");
        List<String> completions = StreamIds.completionsStreams(keys);
        String before = ids.quietLastId(completions);
        String text = "x".repeat(Payloads.INLINE_LIMIT * 2 / 3); // each output travels inline, both together do not

        UUID run = engine.start(workflow, "{\"text\": \"" + text + "\"}");

        engine.awaitStatus(run, "COMPLETED");
        assertThat(ids.lastId(completions)).as("the join went through the coordinator").isNotEqualTo(before);
        JsonNode output = engine.output(run, "D");
        if (output.has("$ref")) {
            output = cas.getJson(output.get("$ref").asString());
        }
        ObjectNode expected = EngineHarness.JSON.createObjectNode();
        expected.putObject("B").put("text", text).put("from", "b");
        expected.putObject("C").put("text", text).put("from", "c");
        assertThat(output).isEqualTo(expected);
    }
}
