package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
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
 * A timer survives the engine: a run waits at a 2 s timer, the engine (a child JVM) is killed with {@code kill -9}
 * while it waits, the timer falls due while no engine runs, and a new engine fires it exactly once.
 */
@SpringBootTest(properties = {"tokenflow.roles=web,live"})
@ActiveProfiles("test")
class TimerAfterKillNineE2ETests {

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;

    @RegisterExtension final EngineProcesses engines = new EngineProcesses();



    @Test
    void aTwoSecondTimerDueWhileTheEngineWasDeadFiresOnceAfterItsRestart() throws Exception {
        String workflow = creating.create(JsonMapper.builder().build().readTree("""
                {"name": "timer-kill-%s", "nodes": [
                  {"id": "pause", "type": "wait", "wait": {"duration": "PT2S"}},
                  {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "pause", "to": "after"}]}"""
                .formatted(UUID.randomUUID().toString().substring(0, 8))), "test").name();
        Process first = engines.start("first");
        // the timer's run starts only once the engine runs a run through: were its supervisor still waiting for a
        // shard's lease, it would log node.waiting late, after the timer had already fired before the kill
        UUID warmUp = starting.start(new StartRunCommand(creating.create(JsonMapper.builder().build().readTree("""
                {"name": "timer-kill-warm-up-%s", "nodes": [{"id": "only", "type": "function", "config": {"function":
                 "echo"}}], "edges": []}""".formatted(UUID.randomUUID().toString().substring(0, 8))), "test").name(),
                null, null, null, null), "test").id();
        await().atMost(Duration.ofSeconds(90)).until(() -> "COMPLETED".equals(status(warmUp)));
        UUID run = starting.start(new StartRunCommand(workflow, null, null, null, null), "test").id();
        await().atMost(Duration.ofSeconds(90)).until(() -> count(run, "node.waiting") == 1);
        first.destroyForcibly().waitFor();
        long waitedFrom = System.currentTimeMillis();

        // the timer falls due while no engine runs
        await().atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() > waitedFrom + 3_000);
        assertThat(count(run, "node.completed")).as("nothing fired without an engine").isZero();
        engines.start("second");
        await().atMost(Duration.ofSeconds(90)).until(() -> "COMPLETED".equals(status(run)));
        assertThat(jdbc.sql("select count(*) from event_log where run_id = ? and event_type = 'node.completed' "
                + "and node_id = 'pause'").param(run).query(Long.class).single()).as("fired once").isOne();
        assertThat(count(run, "node.waiting")).isOne();
    }

    private String status(UUID run) {
        return jdbc.sql("select status from runs where id = ?").param(run).query(String.class).optional().orElse(null);
    }

    private long count(UUID run, String type) {
        return jdbc.sql("select count(*) from event_log where run_id = ? and event_type = ?").params(run, type)
                .query(Long.class).single();
    }
}
