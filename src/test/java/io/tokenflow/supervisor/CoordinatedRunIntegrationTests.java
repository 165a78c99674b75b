package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.support.SigningKey;
import io.tokenflow.signing.WorkerKeys;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.engine.replay.RunState;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.support.OutsiderRedis;
import tools.jackson.databind.json.JsonMapper;

/** A run driven by the real coordinator's Lua steps ends up in PostgreSQL exactly as a replay of its log says. */
@IntegrationTest
class CoordinatedRunIntegrationTests {


    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired WorkerKeys workerKeys;
    @Autowired JdbcClient jdbc;
    JsonMapper json = JsonMapper.builder().build();

    @Test
    void persistsADiamondRunOfTheCoordinator() {
        String name = "supervised-diamond-" + UUID.randomUUID().toString().substring(0, 8);
        creating.create(json.readTree("""
                {"name": "%s", "nodes": [{"id": "A", "type": "task"}, {"id": "B", "type": "task"},
                  {"id": "C", "type": "task"}, {"id": "D", "type": "task", "wait_for_all": true}],
                 "edges": [{"from": "A", "to": "B"}, {"from": "A", "to": "C"}, {"from": "B", "to": "D"},
                           {"from": "C", "to": "D"}]}""".formatted(name)), "test");
        UUID run = starting.start(new StartRunCommand(name, null, null, json.readTree("{\"n\":1}"), null), "test").id();
        StoredRuns stored = new StoredRuns(jdbc);

        await().atMost(Duration.ofSeconds(30)).until(() -> {
            takeTokens().forEach(token -> complete(token, "{\"by\":\"" + token.getBody().get("node") + "\"}"));
            return "COMPLETED".equals(stored.status(run));
        });

        RunState replayed = stored.assertMatchesReplay(run);
        assertThat(replayed.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(replayed.counter()).isZero();
        assertThat(replayed.illegalMoves()).isEmpty();
        assertThat(stored.nodeStatuses(run)).containsOnly(Map.entry("A#0", "COMPLETED"), Map.entry("B#0", "COMPLETED"),
                Map.entry("C#0", "COMPLETED"), Map.entry("D#0", "COMPLETED"));
        assertThat(stored.outputs(run).toString()).isEqualTo("{\"D\":{\"by\":\"D\"}}");
    }

    /** Takes the tokens waiting on every shard's stream (each read on its own, as on a Redis Cluster). */
    private List<StreamMessage<String, String>> takeTokens() {
        List<StreamMessage<String, String>> taken = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            String stream = keys.taskStream("default", shard);
            try {
                redis.commands().xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), keys.workerGroup("default"),
                        XGroupCreateArgs.Builder.mkstream(true));
            } catch (RedisBusyException exists) {
                // created before
            }
            List<StreamMessage<String, String>> read = redis.commands().xreadgroup(Consumer.from(
                    keys.workerGroup("default"), "supervisor-test"), XReadArgs.Builder.count(100),
                    XReadArgs.StreamOffset.lastConsumed(stream));
            if (read != null) {
                taken.addAll(read);
            }
        }
        return taken;
    }

    /** Completes the token on the completions stream of the shard it came from. */
    private void complete(StreamMessage<String, String> token, String output) {
        Map<String, String> body = token.getBody();
        redis.commands().xadd(OutsiderRedis.completionsStreamOf(token), SigningKey.of(workerKeys).signed(Map.of(
                "token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "completed", "output", output, "worker", "test-worker")));
        redis.commands().xack(token.getStream(), keys.workerGroup("default"), token.getId());
    }
}
