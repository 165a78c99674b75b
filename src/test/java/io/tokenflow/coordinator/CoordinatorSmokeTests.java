package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tokenflow.IntegrationTest;
import io.tokenflow.signing.WorkerKeys;
import io.tokenflow.support.SigningKey;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Lua steps and routing end to end, with a worker played by raw Redis commands. */
@IntegrationTest
class CoordinatorSmokeTests {

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired WorkerKeys workerKeys;
    JsonMapper json = JsonMapper.builder().build();

    @Test
    void runsAChainAndADiamond() throws Exception {
        String chain = create("engine/chain");
        var run = starting.start(new StartRunCommand(chain, null, null, json.readTree("{\"n\": 3}"), null), "test");
        ManualWorker worker = new ManualWorker(redis.commands(), "default", keys.shards(), SigningKey.of(workerKeys));
        Map<String, String> inputs = drive(worker, run.id(), Map.of("A", "{\"value\": 42}", "B", "{\"b\": true}"));
        assertThat(inputs).containsEntry("A", "{\"n\":3}").containsEntry("B", "{\"value\": 42}")
                .containsEntry("C", "{\"a\":42,\"b\":{\"b\":true}}");
        assertThat(redis.commands().hget(keys.run(run.id()).meta(), "status")).isEqualTo("COMPLETED");

        String diamond = create("engine/diamond");
        var run2 = starting.start(new StartRunCommand(diamond, null, null, null, null), "test");
        Map<String, String> inputs2 = drive(worker, run2.id(), Map.of("B", "{\"from\": \"b\"}", "C", "{\"from\": \"c\"}"));
        assertThat(json.readTree(inputs2.get("D"))).isEqualTo(json.readTree("{\"B\":{\"from\":\"b\"},\"C\":{\"from\":\"c\"}}"));
        assertThat(redis.commands().hget(keys.run(run2.id()).meta(), "status")).isEqualTo("COMPLETED");
    }

    private Map<String, String> drive(ManualWorker worker, UUID run, Map<String, String> outputs) {
        Map<String, String> inputs = new HashMap<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            for (StreamMessage<String, String> token : worker.take()) {
                String node = token.getBody().get("node");
                inputs.put(node, token.getBody().get("input"));
                worker.complete(token, outputs.getOrDefault(node, "{}"));
            }
            return "COMPLETED".equals(redis.commands().hget(keys.run(run).meta(), "status"));
        });
        return inputs;
    }

    private String create(String fixture) throws Exception {
        ObjectNode dsl = (ObjectNode) json.readTree(getClass().getResourceAsStream("/workflows/" + fixture + ".json"));
        dsl.put("name", dsl.get("name").asString() + "-" + UUID.randomUUID().toString().substring(0, 8));
        return creating.create(dsl, "test").name();
    }
}
