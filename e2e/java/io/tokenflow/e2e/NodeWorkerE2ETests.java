package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.security.ApiTokenService;
import io.tokenflow.security.Scope;
import io.tokenflow.support.NodeSdk;
import tools.jackson.databind.JsonNode;

/**
 * The Node worker SDK's example worker ({@code sdk/node/examples/worker.mjs}, a separate {@code node} process that
 * knows only the Redis URL, its node type and its worker key) runs a workflow of the whole application: an admin
 * registers the type and a worker key on the REST API, a run is started there and completes with the worker's output;
 * the worker stops gracefully on SIGTERM.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tokenflow.security.users[0].username=" + SignIn.ADMIN,
        "tokenflow.security.users[0].password={noop}" + SignIn.ADMIN_PASSWORD,
        "tokenflow.security.users[0].roles=admin,designer,operator"})
@ActiveProfiles("test")
class NodeWorkerE2ETests {

    @LocalServerPort int port;
    @Autowired ApiTokenService tokens;
    @Autowired Environment environment;

    private BearerApi api;

    @Test
    void theExampleWorkerRunsAWorkflowOfTheApplication() throws Exception {
        NodeSdk.ensureInstalled();
        api = new BearerApi(port, tokens.issueIn(SignIn.ADMIN, "default", "node sdk e2e", Set.of(Scope.values()), null)
                .secret());
        String type = "greet_" + UUID.randomUUID().toString().substring(0, 6);
        api.call("PUT", "/api/v1/node-types/" + type, "{\"displayName\": \"Greet\"}", 200);
        JsonNode key = api.call("POST", "/api/v1/worker-keys", "{\"name\": \"node workers\", \"nodeTypes\": [\"" + type
                + "\"]}", 201);
        String workflow = api.call("POST", "/api/v1/workflows", """
                {"name": "%s", "nodes": [{"id": "greet", "type": "%s"}], "edges": []}""".formatted(type, type), 201)
                .get("name").asString();

        ProcessBuilder builder = new ProcessBuilder("node", "examples/worker.mjs").directory(NodeSdk.FOLDER.toFile())
                .redirectErrorStream(true).redirectOutput(Path.of("target", "node-worker-" + type + ".log").toFile());
        builder.environment().put("TOKENFLOW_REDIS_URL", "redis://" + environment.getProperty("spring.data.redis.host")
                + ":" + environment.getProperty("spring.data.redis.port") + "/"
                + environment.getProperty("spring.data.redis.database", "0"));
        builder.environment().put("TOKENFLOW_TYPE", type);
        builder.environment().put("TOKENFLOW_SHARDS", environment.getProperty("tokenflow.redis.shards", "1"));
        builder.environment().put("TOKENFLOW_WORKER_KEY_ID", key.get("id").asString());
        builder.environment().put("TOKENFLOW_WORKER_KEY_SECRET", key.get("secret").asString());
        Process worker = builder.start();
        try {
            String run = api.call("POST", "/api/v1/runs", "{\"workflow\": \"" + workflow + "\", \"inputs\": {\"name\": "
                    + "\"Ada\"}}", 201).get("id").asString();
            await().atMost(Duration.ofSeconds(30)).until(() -> api.call("GET", "/api/v1/runs/" + run, null, 200)
                    .get("status").asString(), status -> !status.equals("RUNNING") && !status.equals("PENDING"));
            JsonNode finished = api.call("GET", "/api/v1/runs/" + run, null, 200);
            assertThat(finished.get("status").asString()).as(finished.toString()).isEqualTo("COMPLETED");
            assertThat(finished.at("/outputs/greet/greeting").asString()).isEqualTo("hello Ada");
            assertThat(api.call("GET", "/api/v1/signals/rejected?run=" + run, null, 200)).isEmpty();
        } finally {
            worker.destroy();
            assertThat(worker.waitFor(20, TimeUnit.SECONDS)).as("the worker stops on SIGTERM").isTrue();
        }
        assertThat(worker.exitValue()).as("a graceful stop").isZero();
    }
}
