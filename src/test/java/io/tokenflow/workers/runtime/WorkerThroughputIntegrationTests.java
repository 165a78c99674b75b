package io.tokenflow.workers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.tokenflow.redis.DedicatedConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.WorkerHarness;
import io.tokenflow.workers.WorkerIntegrationTest;

/** Ten thousand echo tokens through the function worker; prints the rate (measured, not asserted). */
@WorkerIntegrationTest
class WorkerThroughputIntegrationTests {

    private static final int TOKENS = 10_000;

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    private WorkerHarness harness;
    private DedicatedConnection producer;

    @BeforeEach
    void open() {
        harness = new WorkerHarness(connections.commands(), keys);
        producer = connections.dedicated();
    }

    @AfterEach
    void close() {
        producer.close();
        harness.close();
    }

    @Test
    void completesTenThousandEchoTokens() {
        UUID run = harness.startRun();
        for (String round : new String[] {"cold", "warm"}) {
            List<String> tokens = new ArrayList<>(TOKENS);
            long start = System.nanoTime();

            sendPipelined(run, tokens);
            long sent = System.nanoTime();
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10))
                    .until(() -> harness.poll().keySet().containsAll(tokens));

            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("Worker throughput (%s JVM): %d echo tokens in %.2f s (sent in %.2f s) = %.0f tokens/s%n",
                    round, TOKENS, seconds, (sent - start) / 1e9, TOKENS / seconds);
            assertThat(harness.poll().get(tokens.get(TOKENS - 1))).containsEntry("status", "completed");
        }
    }

    private void sendPipelined(UUID run, List<String> tokens) {
        RedisClusterAsyncCommands<String, String> redis = producer.async();
        producer.setAutoFlushCommands(false);
        List<RedisFuture<String>> replies = new ArrayList<>(TOKENS);
        for (int i = 0; i < TOKENS; i++) {
            String token = WorkerHarness.newTokenId();
            tokens.add(token);
            replies.add(redis.xadd(keys.taskStream("function", 0),
                    WorkerHarness.token(token, run, "function", "{\"i\":" + i + "}", "{\"function\":\"echo\"}")));
        }
        producer.flushCommands();
        assertThat(LettuceFutures.awaitAll(30, TimeUnit.SECONDS, replies.toArray(RedisFuture[]::new))).isTrue();
    }
}
