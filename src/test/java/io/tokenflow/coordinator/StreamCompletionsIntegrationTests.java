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
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;

/**
 * With {@code tokenflow.coordinator.route-local-completions=false} the built-in workers report through the completions
 * stream, as external workers do, and the coordinator's consumers route what they read there. The rest of the suite
 * runs with the default (in-process), so this is the built-in workers' stream path.
 */
@IntegrationTest
@TestPropertySource(properties = "tokenflow.coordinator.route-local-completions=false")
@Import(RecordedFunction.class)
class StreamCompletionsIntegrationTests {

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired LocalCompletions local;

    EngineHarness engine;
    StreamIds ids;

    @BeforeEach
    void setUp() {
        engine = new EngineHarness(creating, starting, jdbc);
        ids = new StreamIds(redis.commands());
    }

    @Test
    void builtInWorkersReportThroughTheCompletionsStream() {
        assertThat(local.enabled()).isFalse();
        String workflow = engine.workflow("engine/local-chain");
        List<String> completions = StreamIds.completionsStreams(keys);
        String before = ids.quietLastId(completions);

        LocalCompletionsIntegrationTests.runChain(engine, workflow);

        assertThat(ids.lastId(completions)).as("the completions went through the stream").isNotEqualTo(before);
    }

    @Test
    void aJoinCompletedFromTheStreamGetsItsDependenciesOutputsMerged() {
        String workflow = engine.workflow("engine/local-diamond");

        UUID run = engine.start(workflow, "{\"text\": \"hi\"}");

        engine.awaitStatus(run, "COMPLETED");
        assertThat(engine.output(run, "D")).isEqualTo(EngineHarness.JSON.readTree(
                "{\"B\": {\"text\": \"hi\", \"from\": \"b\"}, \"C\": {\"text\": \"hi\", \"from\": \"c\"}}"));
        assertThat(engine.completedNodes(run)).hasSize(4).containsOnlyOnce("A", "B", "C", "D");
    }
}
