package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
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
 * Tokenflow scaled out on a Redis Cluster: this JVM serves the API (web, live) and three engine JVMs run the other
 * roles between them: one routes and writes the event log (coordinator, supervisor), one runs the built-in workers
 * and writes the event log (workers, supervisor), one routes and runs workers (coordinator, workers). 3,000 runs go
 * in (eight threads starting them); the first engine is killed with {@code kill -9} while they run; its routing goes on in the third and its shards'
 * event logs in the second: every run completes, each node once. Runs in the cluster pass ({@code .ci/cluster-tests}),
 * which sets {@code SPRING_DATA_REDIS_CLUSTER_NODES}.
 */
@EnabledIfEnvironmentVariable(named = "SPRING_DATA_REDIS_CLUSTER_NODES", matches = ".+",
        disabledReason = "needs a Redis Cluster: .ci/cluster-tests starts one")
@SpringBootTest(properties = {"tokenflow.roles=web,live"})
@ActiveProfiles("test")
class ScaleOutE2ETests {

    private static final int RUNS = 3_000;

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;

    @RegisterExtension final EngineProcesses engines = new EngineProcesses();



    @Test
    void threeEnginesWithDifferentRolesCompleteEveryRunOnceThoughOneIsKilled() throws Exception {
        assertThat(redis.clustered()).as("on a Redis Cluster").isTrue();
        String workflow = creating.create(JsonMapper.builder().build().readTree("""
                {"name": "scale-out-%s", "nodes": [
                  {"id": "A", "type": "function", "config": {"function": "echo"}},
                  {"id": "B", "type": "function", "config": {"function": "sleep", "args": {"ms": 50}}},
                  {"id": "C", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "A", "to": "B"}, {"from": "B", "to": "C"}]}"""
                .formatted(UUID.randomUUID().toString().substring(0, 8))), "test").name();
        Process router = engines.start("router", "--tokenflow.roles=coordinator,supervisor");
        engines.start("worker", "--tokenflow.roles=workers,supervisor", "--tokenflow.workers.concurrency.function=4");
        engines.start("both", "--tokenflow.roles=coordinator,workers", "--tokenflow.workers.concurrency.function=4");
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200))
                .until(() -> leases().stream().noneMatch("none"::equals));
        System.out.println("Shard leases: " + leases());

        // started by eight threads as concurrent API clients would, so that runs are still starting at the kill
        long startedAt = System.nanoTime();
        List<UUID> runs = Collections.synchronizedList(new ArrayList<>());
        ExecutorService starters = Executors.newFixedThreadPool(8);
        List<Future<Boolean>> starts = IntStream.range(0, RUNS).mapToObj(i -> starters.submit(() -> runs.add(
                starting.start(new StartRunCommand(workflow, null, null, null, null), "test").id()))).toList();
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(100))
                .until(() -> completed(List.copyOf(runs)) >= 300);
        router.destroyForcibly().waitFor();
        System.out.println("Killed the router engine with " + completed(List.copyOf(runs)) + " runs completed and "
                + runs.size() + " of " + RUNS + " started");
        for (Future<Boolean> start : starts) {
            start.get();
        }
        starters.shutdown();
        assertThat(runs.stream().map(keys::shardOf).distinct().count()).as("runs on every shard")
                .isEqualTo(keys.shards());

        await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                .until(() -> completed(runs) == RUNS);
        System.out.printf("All %d runs completed %.1f s after the first start%n", RUNS,
                (System.nanoTime() - startedAt) / 1e9);
        assertThat(jdbc.sql("select count(*) from node_executions where run_id in (:ids) and status = 'COMPLETED'")
                .param("ids", runs).query(Long.class).single()).isEqualTo(RUNS * 3L);
        assertThat(jdbc.sql("select count(*) from event_log where run_id in (:ids) and event_type = 'node.completed'")
                .param("ids", runs).query(Long.class).single()).as("each node completed once").isEqualTo(RUNS * 3L);
    }

    private List<String> leases() {
        return IntStream.range(0, keys.shards()).mapToObj(shard -> redis.commands().get(keys.supervisorLease(shard)))
                .map(owner -> owner == null ? "none" : owner).toList();
    }

    private long completed(List<UUID> runs) {
        if (runs.isEmpty()) {
            return 0;
        }
        return jdbc.sql("select count(*) from runs where id in (:ids) and status = 'COMPLETED'")
                .param("ids", runs).query(Long.class).single();
    }
}
