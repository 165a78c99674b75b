package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.runs.RunHistory;
import io.tokenflow.runs.RunQueries;
import io.tokenflow.runs.RunViews;
import io.tokenflow.runs.StartRun;

/**
 * 1,000 concurrent runs of every fixture the engine runs today complete: each counter ends at 0, no Redis key of a
 * finished run remains, the event log holds each run's full, gapless history, and replaying it gives the live state.
 */
@SpringBootTest(properties = "tokenflow.supervisor.finished-run-retention=0s")
@ActiveProfiles("test")
class EngineScaleIntegrationTests {

    private static final int RUNS = 1_000;

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired RunQueries queries;
    @Autowired RunHistory history;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "valid/sequential       | {}",
            "valid/fan-out-fan-in   | {}",
            "valid/data-enrichment  | {\"city\": \"Oslo\"}",
            "valid/parallel-fan-out | {\"size\": 10, \"items\": [{\"score\": 5}, {\"score\": 1}]}"})
    void completesAThousandConcurrentRuns(String fixture, String inputs) {
        EngineHarness engine = new EngineHarness(creating, starting, jdbc);
        String workflow = engine.workflow(fixture);
        List<UUID> runs = new ArrayList<>(RUNS);
        for (int i = 0; i < RUNS; i++) {
            runs.add(engine.start(workflow, inputs));
        }
        engine.awaitAll(runs, "COMPLETED", Duration.ofMinutes(3));

        assertThat(jdbc.sql("select count(*) from runs where id in (:ids) and final_counter = 0").param("ids", runs)
                .query(Long.class).single()).isEqualTo(RUNS);
        assertThat(jdbc.sql("select count(*) from (select run_id from event_log where run_id in (:ids) group by run_id "
                + "having min(seq) = 1 and max(seq) = count(*)) gapless").param("ids", runs).query(Long.class).single())
                .isEqualTo(RUNS);
        assertThat(jdbc.sql("select count(*) from event_log where run_id in (:ids) and event_type = 'run.completed'")
                .param("ids", runs).query(Long.class).single()).isEqualTo(RUNS);
        for (UUID run : runs) {
            assertThat(redis.commands().exists(keys.run(run).all().toArray(String[]::new))).as("keys of %s", run).isZero();
            assertReplayEqualsLiveState(run);
        }
    }

    private void assertReplayEqualsLiveState(UUID run) {
        RunViews.Detail live = queries.get(run);
        RunViews.Replay replay = history.replay(run, null);
        assertThat(replay.status()).isEqualTo(live.status());
        assertThat(replay.counter()).isEqualTo(live.counter());
        assertThat(replay.outputs()).isEqualTo(toMap(live.outputs()));
        assertThat(replay.nodes()).hasSameSizeAs(live.nodes());
        for (RunViews.Node node : live.nodes()) {
            RunViews.Node replayed = replay.nodes().stream().filter(n -> n.node().equals(node.node())
                    && n.iteration() == node.iteration()).findFirst().orElseThrow();
            assertThat(replayed.status()).isEqualTo(node.status());
            assertThat(replayed.output()).isEqualTo(node.output());
        }
    }

    private static java.util.Map<String, tools.jackson.databind.JsonNode> toMap(tools.jackson.databind.JsonNode object) {
        java.util.Map<String, tools.jackson.databind.JsonNode> map = new java.util.LinkedHashMap<>();
        if (object != null) {
            object.properties().forEach(e -> map.put(e.getKey(), e.getValue()));
        }
        return map;
    }
}
