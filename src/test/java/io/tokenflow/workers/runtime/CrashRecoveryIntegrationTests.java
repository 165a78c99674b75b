package io.tokenflow.workers.runtime;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.WorkerHarness;
import io.tokenflow.workers.WorkerIntegrationTest;

/**
 * A consumer that reads a token under the workers' group and dies without acknowledging it: after the claim timeout
 * (500 ms in these tests) a live consumer takes the token over and completes it. A live consumer's slow token is
 * not taken over.
 */
@WorkerIntegrationTest
class CrashRecoveryIntegrationTests {

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    private WorkerHarness harness;
    private DedicatedConnection deadConsumerConnection;

    @BeforeEach
    void open() {
        harness = new WorkerHarness(connections.commands(), keys);
        deadConsumerConnection = connections.dedicated();
    }

    @AfterEach
    void close() {
        deadConsumerConnection.close();
        harness.close();
    }

    @Test
    void aTokenLeftPendingByADeadConsumerIsClaimedAndCompleted() {
        UUID run = harness.startRun();
        String stream = keys.taskStream("function", 0);
        String deadConsumer = "dead-" + UUID.randomUUID();
        String token = WorkerHarness.newTokenId();

        String entryId = readWithoutAcknowledging(stream, deadConsumer,
                WorkerHarness.token(token, run, "function", "{\"survived\":true}", "{\"function\":\"echo\"}"));
        Map<String, String> completion = harness.awaitCompletion(token, Duration.ofSeconds(15));

        assertThat(json(completion.get("output"))).isEqualTo(json("{\"survived\":true}"));
        assertThat(completion.get("worker")).isNotEqualTo(deadConsumer).contains("-function-");
        long readAt = Long.parseLong(entryId.substring(0, entryId.indexOf('-')));
        assertThat(Long.parseLong(completion.get("started_at"))).isGreaterThanOrEqualTo(readAt + 400);
        await().atMost(Duration.ofSeconds(5)).until(() ->
                connections.commands().xpending(stream, keys.workerGroup("function")).getCount() == 0);
    }

    @Test
    void aSlowTokenIsNotTakenOverWhileItsConsumerLives() {
        UUID run = harness.startRun();
        String token = harness.send("function", run, "{\"slow\":true}",
                "{\"function\":\"sleep\",\"args\":{\"ms\":1500}}");

        harness.awaitCompletion(token, Duration.ofSeconds(10));

        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
                .until(() -> harness.completionsOf(token) == 1);
        assertThat(harness.startsOf(token)).as("its start is reported once").isEqualTo(1);
    }

    /**
     * Adds the token and reads it as the dead consumer in one script, so no live worker (blocked on
     * {@code XREADGROUP >}) can take it first.
     */
    private String readWithoutAcknowledging(String stream, String consumer, Map<String, String> fields) {
        RedisClusterCommands<String, String> redis = deadConsumerConnection.sync();
        List<String> args = new ArrayList<>(List.of(keys.workerGroup("function"), consumer));
        fields.forEach((field, value) -> args.addAll(List.of(field, value)));
        List<Object> reply = redis.eval("""
                local id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 3))
                local read = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', 1, 'STREAMS', KEYS[1], '>')
                return {id, read[1][2][1][1]}""", ScriptOutputType.MULTI, new String[] {stream},
                args.toArray(String[]::new));
        assertThat(reply.get(1)).as("the entry the dead consumer read").isEqualTo(reply.get(0));
        return (String) reply.get(0);
    }
}
