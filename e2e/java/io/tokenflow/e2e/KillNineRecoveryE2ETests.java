package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import tools.jackson.databind.json.JsonMapper;

/**
 * The engine killed with {@code kill -9} in the middle of 500 runs and restarted: all 500 complete. This JVM holds
 * the real PostgreSQL and Redis and starts the runs; a child JVM runs the engine (coordinator, workers, supervisor)
 * and is killed with SIGKILL while runs are in flight.
 */
@SpringBootTest(properties = {"tokenflow.roles=web,live"})
@ActiveProfiles("test")
class KillNineRecoveryE2ETests {

    private static final int RUNS = 500;

    /**
     * B and C sleep this long on four function-worker threads, so the 500 runs need at least
     * 500 × 2 × 40 ms ÷ 4 = 10 s of work: the kill always lands in the middle, however fast the rest of the engine is.
     */
    private static final int SLEEP_MS = 40;
    private static final int FUNCTION_WORKERS = 4;

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;

    @RegisterExtension final EngineProcesses engines = new EngineProcesses();



    @Test
    void allRunsCompleteAfterTheEngineIsKilledAndRestarted() throws Exception {
        String workflow = creating.create(JsonMapper.builder().build().readTree("""
                {"name": "kill-nine-%s", "nodes": [
                  {"id": "A", "type": "function", "config": {"function": "sleep", "args": {"ms": 5}}},
                  {"id": "B", "type": "function", "config": {"function": "sleep", "args": {"ms": %d}}},
                  {"id": "C", "type": "function", "config": {"function": "sleep", "args": {"ms": %d}}},
                  {"id": "D", "type": "function", "config": {"function": "echo"}, "wait_for_all": true}],
                 "edges": [{"from": "A", "to": "B"}, {"from": "A", "to": "C"}, {"from": "B", "to": "D"},
                           {"from": "C", "to": "D"}]}""".formatted(UUID.randomUUID().toString().substring(0, 8), SLEEP_MS, SLEEP_MS)),
                "test").name();
        List<UUID> runs = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            runs.add(starting.start(new StartRunCommand(workflow, null, null, null, null), "test").id());
        }
        Process first = engines.start("first", "--tokenflow.workers.concurrency.function=" + FUNCTION_WORKERS);
        await().atMost(Duration.ofSeconds(120)).until(() -> completed(runs) >= 20);
        long before = completed(runs);
        first.destroyForcibly().waitFor();
        assertThat(before).as("runs completed before the kill").isLessThan(RUNS);

        engines.start("second", "--tokenflow.workers.concurrency.function=" + FUNCTION_WORKERS);
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).until(() -> completed(runs) == RUNS);
        assertThat(jdbc.sql("select count(*) from runs where id in (:ids) and final_counter = 0")
                .param("ids", runs).query(Long.class).single()).isEqualTo(RUNS);
        assertThat(jdbc.sql("select count(*) from node_executions where run_id in (:ids) and status = 'COMPLETED'")
                .param("ids", runs).query(Long.class).single()).isEqualTo(RUNS * 4L);
    }

    private long completed(List<UUID> runs) {
        return jdbc.sql("select count(*) from runs where id in (:ids) and status = 'COMPLETED'")
                .param("ids", runs).query(Long.class).single();
    }
}
