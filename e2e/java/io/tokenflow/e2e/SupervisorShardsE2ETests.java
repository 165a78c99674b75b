package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two engines (child JVMs with the coordinator, supervisor and workers roles) over four shards split the shards'
 * event logs between them, two each, by lease; one is killed with {@code kill -9} in the middle of 600 runs and the
 * other takes its shards over within seconds: all runs complete, each node once. This JVM serves the API (web, live).
 */
@SpringBootTest(properties = {"tokenflow.roles=web,live", "tokenflow.redis.shards=4"})
@ActiveProfiles("test")
class SupervisorShardsE2ETests {

    private static final int RUNS = 600;
    private static final int SHARDS = 4;
    private static final String LEASE = "2s";

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;

    @RegisterExtension final EngineProcesses engines = new EngineProcesses();



    @Test
    void twoSupervisorsSplitTheShardsAndTheSurvivorTakesTheKilledOnesOver() throws Exception {
        String workflow = creating.create(JsonMapper.builder().build().readTree("""
                {"name": "shards-%s", "nodes": [
                  {"id": "A", "type": "function", "config": {"function": "sleep", "args": {"ms": 5}}},
                  {"id": "B", "type": "function", "config": {"function": "sleep", "args": {"ms": 100}}},
                  {"id": "C", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "A", "to": "B"}, {"from": "B", "to": "C"}]}"""
                .formatted(UUID.randomUUID().toString().substring(0, 8))), "test").name();
        Process first = engines.start("first", "--tokenflow.redis.shards=" + SHARDS,
                "--tokenflow.supervisor.shard-lease=" + LEASE, "--tokenflow.workers.concurrency.function=2");
        Process second = engines.start("second", "--tokenflow.redis.shards=" + SHARDS,
                "--tokenflow.supervisor.shard-lease=" + LEASE, "--tokenflow.workers.concurrency.function=2");
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> holders(first, second).equals(Map.of("first", 2L, "second", 2L)));
        System.out.println("Shard leases: " + leases());

        List<UUID> runs = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            runs.add(starting.start(new StartRunCommand(workflow, null, null, null, null), "test").id());
        }
        assertThat(runs.stream().map(keys::shardOf).distinct().count()).isEqualTo(SHARDS);
        await().atMost(Duration.ofSeconds(120)).until(() -> completed(runs) >= 30);
        assertThat(completed(runs)).as("runs completed before the kill").isLessThan(RUNS);
        first.destroyForcibly().waitFor();
        long killedAt = System.nanoTime();

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> holders(first, second).equals(Map.of("second", (long) SHARDS)));
        double takeover = (System.nanoTime() - killedAt) / 1e9;
        System.out.printf("The survivor held all %d shards %.1f s after the kill (lease %s)%n", SHARDS, takeover,
                LEASE);
        assertThat(takeover).as("takeover within a few leases").isLessThan(10);

        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> completed(runs) == RUNS);
        assertThat(jdbc.sql("select count(*) from node_executions where run_id in (:ids) and status = 'COMPLETED'")
                .param("ids", runs).query(Long.class).single()).isEqualTo(RUNS * 3L);
        assertThat(jdbc.sql("select count(*) from event_log where run_id in (:ids) and event_type = 'node.completed'")
                .param("ids", runs).query(Long.class).single()).as("each node completed once").isEqualTo(RUNS * 3L);
    }

    /** How many shard leases each engine holds, by its name. */
    private Map<String, Long> holders(Process first, Process second) {
        Map<String, String> byPid = Map.of("supervisor-" + first.pid() + "@", "first",
                "supervisor-" + second.pid() + "@", "second");
        return leases().stream().map(owner -> byPid.entrySet().stream().filter(e -> owner.startsWith(e.getKey()))
                        .map(Map.Entry::getValue).findFirst().orElse(owner))
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    private List<String> leases() {
        return IntStream.range(0, SHARDS).mapToObj(shard -> redis.commands().get(keys.supervisorLease(shard)))
                .map(owner -> owner == null ? "none" : owner).toList();
    }

    private long completed(List<UUID> runs) {
        return jdbc.sql("select count(*) from runs where id in (:ids) and status = 'COMPLETED'")
                .param("ids", runs).query(Long.class).single();
    }
}
