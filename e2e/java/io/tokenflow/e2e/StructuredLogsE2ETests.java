package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.security.ApiTokenService;
import io.tokenflow.security.Scope;
import io.tokenflow.support.OutsiderRedis;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON logs as an operator turns them on ({@code --logging.structured.format.console=ecs}, Spring Boot's structured
 * logging) on an engine in a child JVM: a run is started on this JVM's REST API, a worker outside sends an unsigned
 * completion for its token, and the engine's line refusing it is one JSON object carrying the run, node, token, node
 * type and the run's trace id beside the ECS fields.
 */
// a Redis database of its own (the child engine is given the same): the coordinators of other test contexts cached in
// this JVM share the default one, and one of them took the outsider's completion before the child engine was up
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {"tokenflow.roles=web,live",
        "spring.data.redis.database=11",
        "tokenflow.security.users[0].username=" + SignIn.ADMIN,
        "tokenflow.security.users[0].password={noop}" + SignIn.ADMIN_PASSWORD,
        "tokenflow.security.users[0].roles=admin,designer,operator"})
@ActiveProfiles("test")
class StructuredLogsE2ETests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort int port;
    @Autowired ApiTokenService tokens;
    @Autowired Environment environment;

    @RegisterExtension final EngineProcesses engines = new EngineProcesses();

    private BearerApi api;

    @Test
    void anEngineLineAboutARunIsOneJsonObjectWithTheRunsCorrelationFields() throws Exception {
        api = new BearerApi(port, tokens.issueIn(SignIn.ADMIN, "default", "structured logs e2e",
                Set.of(Scope.values()), null).secret());
        String type = "audit_" + UUID.randomUUID().toString().substring(0, 6);
        api.call("PUT", "/api/v1/node-types/" + type, "{\"displayName\": \"Audit\"}", 200);
        String workflow = api.call("POST", "/api/v1/workflows", """
                {"name": "%s", "nodes": [{"id": "check", "type": "%s"}], "edges": []}""".formatted(type, type), 201)
                .get("name").asString();
        Process engine = engines.start("json-logs", "--logging.structured.format.console=ecs");
        String run = api.call("POST", "/api/v1/runs", "{\"workflow\": \"" + workflow + "\"}", 201).get("id").asString();

        try (OutsiderRedis redis = OutsiderRedis.connect(environment)) {
            StreamMessage<String, String> task = await().atMost(Duration.ofSeconds(30)).until(() -> taskOf(redis, type,
                    run), Optional::isPresent).orElseThrow();
            redis.commands().xadd(OutsiderRedis.completionsStreamOf(task), Map.of("token", task.getBody().get("token"),
                    "run", run, "node", "check", "status", "completed", "worker", "outsider", "output", "{}"));
            Path log = engines.logOf(engine);
            JsonNode line = await().atMost(Duration.ofSeconds(60)).until(() -> refusal(log, run), Optional::isPresent)
                    .orElseThrow();
            assertThat(line.get("@timestamp").asString()).isNotBlank();
            assertThat(line.has("log.level") ? line.get("log.level").asString() : line.at("/log/level").asString())
                    .isEqualTo("WARN");
            assertThat(line.get("run_id").asString()).isEqualTo(run);
            assertThat(line.get("node_id").asString()).isEqualTo("check");
            assertThat(line.get("token_id").asString()).isEqualTo(task.getBody().get("token"));
            assertThat(line.get("trace_id").asString()).isEqualTo(run.replace("-", ""));
            assertThat(line.get("message").asString()).contains("unsigned");
            long plain = Files.readAllLines(log).stream().filter(text -> text.startsWith("20")).count();
            assertThat(plain).as("lines of the plain pattern in a JSON log").isZero();
        }
    }

    private static Optional<StreamMessage<String, String>> taskOf(OutsiderRedis redis, String type, String run) {
        for (String stream : redis.commands().keys("wf.tasks." + type + ":*")) {
            List<StreamMessage<String, String>> entries = redis.commands().xrange(stream, Range.create("-", "+"));
            Optional<StreamMessage<String, String>> found = entries.stream()
                    .filter(entry -> run.equals(entry.getBody().get("run"))).findFirst();
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> refusal(Path log, String run) throws Exception {
        return Files.readAllLines(log).stream().filter(text -> text.startsWith("{") && text.contains(run)
                        && text.contains("Refused completion signal"))
                .map(JSON::readTree).findFirst();
    }
}
