package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shards are added without stopping. An instance on two shards (a child JVM serving the API, routing and writing
 * the event log, but running no workers) takes runs through its REST API: they wait on shards 0 and 1 for a worker.
 * An engine on four shards joins (coordinator, supervisor, workers); while both run, this JVM (the API on four
 * shards) starts more runs, which land on all four; then the two-shard instance stops. Every run completes, each
 * node once, the first runs on the shards they started on. Runs on one Redis and, in the cluster pass, on a Redis
 * Cluster.
 */
@SpringBootTest(properties = {"tokenflow.roles=web,live", "tokenflow.redis.shards=4"})
@ActiveProfiles("test")
class AddShardsE2ETests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int OLD_RUNS = 30;
    private static final int NEW_RUNS = 40;

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisKeys keys;

    @RegisterExtension final EngineProcesses engines = new EngineProcesses();

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void runsStartedOnTwoShardsCompleteWhenFourTakeOverAndNewRunsUseAllFour() throws Exception {
        String workflow = creating.create(JSON.readTree("""
                {"name": "add-shards-%s", "nodes": [
                  {"id": "A", "type": "function", "config": {"function": "echo"}},
                  {"id": "B", "type": "function", "config": {"function": "sleep", "args": {"ms": 100}}},
                  {"id": "C", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "A", "to": "B"}, {"from": "B", "to": "C"}]}"""
                .formatted(UUID.randomUUID().toString().substring(0, 8))), "test").name();
        int port = freePort();
        Process old = engines.start("two-shards", "--tokenflow.roles=web,coordinator,supervisor",
                "--tokenflow.redis.shards=2", "--server.port=" + port,
                "--tokenflow.security.users[0].username=ops", "--tokenflow.security.users[0].password={noop}ops-pass-1",
                "--tokenflow.security.users[0].roles=designer,operator");
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .failFast("the two-shard instance exited", () -> !old.isAlive())
                .until(() -> get(port, "/actuator/health").statusCode() == 200);

        List<UUID> oldRuns = new ArrayList<>();
        for (int i = 0; i < OLD_RUNS; i++) {
            HttpResponse<String> started = post(port, "/api/v1/runs", "{\"workflow\": \"" + workflow + "\"}");
            assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
            oldRuns.add(UUID.fromString(JSON.readTree(started.body()).get("id").asString()));
        }
        assertThat(shards(oldRuns)).as("the two-shard instance starts runs on its two shards").containsExactly(0, 1);
        // written to the event log by the two-shard instance's supervisor; no worker has taken a task yet
        await().atMost(Duration.ofSeconds(60)).until(() -> count(oldRuns, "run.started") == OLD_RUNS);
        assertThat(count(oldRuns, "node.completed")).isZero();

        engines.start("four-shards", "--tokenflow.roles=coordinator,supervisor,workers", "--tokenflow.redis.shards=4",
                "--tokenflow.workers.concurrency.function=4");
        List<UUID> newRuns = new ArrayList<>();
        for (int i = 0; i < NEW_RUNS; i++) {
            newRuns.add(starting.start(new StartRunCommand(workflow, null, null, null, null), "test").id());
        }
        assertThat(shards(newRuns)).as("runs started on four shards use all four").containsExactly(0, 1, 2, 3);
        await().atMost(Duration.ofSeconds(120)).until(() -> count(oldRuns, "node.completed") > 0);
        old.destroy(); // SIGTERM: its supervisor gives its shards' leases up
        assertThat(old.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the two-shard instance stopped")
                .isTrue();

        List<UUID> all = new ArrayList<>(oldRuns);
        all.addAll(newRuns);
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> completed(all) == all.size());
        assertThat(count(all, "node.completed")).as("each node of each run completed once").isEqualTo(3L * all.size());
        assertThat(jdbc.sql("select count(*) from (select run_id, node_id from event_log where run_id = any(?) and "
                + "event_type = 'node.completed' group by run_id, node_id having count(*) > 1) twice")
                .param(all.toArray(UUID[]::new)).query(Long.class).single()).isZero();
        assertThat(jdbc.sql("select distinct shard from runs where id = any(?) order by shard")
                .param(oldRuns.toArray(UUID[]::new)).query(Integer.class).list()).as("the runs' rows keep their shards")
                .containsExactly(0, 1);
    }

    private Set<Integer> shards(List<UUID> runs) {
        Set<Integer> shards = new TreeSet<>();
        runs.forEach(run -> shards.add(keys.shardOf(run)));
        return shards;
    }

    private long count(List<UUID> runs, String type) {
        return jdbc.sql("select count(*) from event_log where run_id = any(?) and event_type = ?")
                .params(runs.toArray(UUID[]::new), type).query(Long.class).single();
    }

    private long completed(List<UUID> runs) {
        return jdbc.sql("select count(*) from runs where id = any(?) and status = 'COMPLETED'")
                .param(runs.toArray(UUID[]::new)).query(Long.class).single();
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(int port, String path, String body) throws IOException, InterruptedException {
        String credentials = Base64.getEncoder().encodeToString("ops:ops-pass-1".getBytes(StandardCharsets.UTF_8));
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").header("Authorization", "Basic " + credentials)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
