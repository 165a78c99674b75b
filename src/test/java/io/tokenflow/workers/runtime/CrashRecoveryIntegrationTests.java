package io.tokenflow.workers.runtime;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
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
    private StatefulRedisConnection<String, String> deadConsumerConnection;

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
     * Adds the token and reads it as the dead consumer in one transaction, so no live worker (blocked on
     * {@code XREADGROUP >}) can take it first.
     */
    private String readWithoutAcknowledging(String stream, String consumer, Map<String, String> fields) {
        RedisCommands<String, String> redis = deadConsumerConnection.sync();
        redis.multi();
        redis.xadd(stream, fields);
        redis.xreadgroup(Consumer.from(keys.workerGroup("function"), consumer), XReadArgs.Builder.count(1),
                StreamOffset.lastConsumed(stream));
        TransactionResult result = redis.exec();
        String entryId = result.get(0);
        List<StreamMessage<String, String>> read = result.get(1);
        assertThat(read).extracting(StreamMessage::getId).containsExactly(entryId);
        return entryId;
    }
}
