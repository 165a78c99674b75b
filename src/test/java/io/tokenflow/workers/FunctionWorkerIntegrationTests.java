package io.tokenflow.workers;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/** Tokens for the {@code function} worker travel through real Redis streams and come back as completions. */
@WorkerIntegrationTest
class FunctionWorkerIntegrationTests {

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    private WorkerHarness harness;
    private UUID run;

    @BeforeEach
    void startRun() {
        harness = new WorkerHarness(connections.commands(), keys);
        run = harness.startRun();
    }

    @AfterEach
    void close() {
        harness.close();
    }

    @Test
    void echoCompletesWithItsInput() {
        String token = harness.send("function", run, "{\"a\":[1,{\"b\":\"c\"}]}", "{\"function\":\"echo\"}");

        Map<String, String> completion = harness.awaitCompletion(token);

        assertThat(completion).containsEntry("run", run.toString()).containsEntry("status", "completed")
                .containsEntry("node", "node-" + token.substring(0, 6)).containsKeys("worker", "started_at");
        assertThat(json(completion.get("output"))).isEqualTo(json("{\"a\":[1,{\"b\":\"c\"}]}"));
        assertThat(completion.get("worker")).contains("-function-");
    }

    @Test
    void setMergesItsArgsIntoTheInput() {
        String token = harness.send("function", run, "{\"a\":1}", "{\"function\":\"set\",\"args\":{\"b\":2}}");

        assertThat(json(harness.awaitCompletion(token).get("output"))).isEqualTo(json("{\"a\":1,\"b\":2}"));
    }

    @Test
    void noopCompletesWithAnEmptyObject() {
        String token = harness.send("function", run, "{\"a\":1}", "{\"function\":\"noop\"}");

        assertThat(harness.awaitCompletion(token).get("output")).isEqualTo("{}");
    }

    @Test
    void sleepCompletesAfterItsPause() {
        String token = harness.send("function", run, "{\"a\":1}", "{\"function\":\"sleep\",\"args\":{\"ms\":150}}");

        Map<String, String> completion = harness.awaitCompletion(token);

        assertThat(json(completion.get("output"))).isEqualTo(json("{\"a\":1}"));
    }

    @Test
    void failReportsAFailedCompletionWithItsKind() {
        String permanent = harness.send("function", run, "{}", "{\"function\":\"fail\",\"args\":{\"message\":\"no\"}}");
        String transientOne = harness.send("function", run, "{}",
                "{\"function\":\"fail\",\"args\":{\"message\":\"later\",\"kind\":\"transient\"}}");

        Map<String, String> failed = harness.awaitCompletion(permanent);
        assertThat(failed).containsEntry("status", "failed").doesNotContainKey("output");
        assertThat(json(failed.get("error"))).isEqualTo(json(
                "{\"message\":\"no\",\"kind\":\"permanent\",\"code\":\"failed\"}"));
        assertThat(json(harness.awaitCompletion(transientOne).get("error")).get("kind").stringValue())
                .isEqualTo("transient");
    }

    @Test
    void anUnknownFunctionFailsPermanently() {
        String token = harness.send("function", run, "{}", "{\"function\":\"nope\"}");

        assertThat(json(harness.awaitCompletion(token).get("error")).get("message").stringValue())
                .contains("greet").contains("echo");
    }

    @Test
    void runsAFunctionAddedAsABean() {
        String token = harness.send("function", run, "{\"name\":\"Ada\"}",
                "{\"function\":\"greet\",\"args\":{\"salutation\":\"Hi\"}}");

        assertThat(json(harness.awaitCompletion(token).get("output"))).isEqualTo(json(
                "{\"greeting\":\"Hi, Ada!\",\"token\":\"" + token + "\",\"run\":\"" + run + "\"}"));
    }
}
