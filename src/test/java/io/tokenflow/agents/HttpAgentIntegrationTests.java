package io.tokenflow.agents;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.tracing.TraceIds;
import io.tokenflow.workers.WorkerHarness;
import tools.jackson.databind.JsonNode;

/**
 * The {@code http_agent} worker against fake external agents on a real port (seed 004's bridge): registered through
 * the registry API, called with {@code {task_id, input}}, retried on 5xx and time-outs, never on 4xx.
 */
@AgentIntegrationTest
class HttpAgentIntegrationTests {

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    @Autowired
    MockMvc mvc;

    @Autowired
    JdbcClient jdbc;

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final List<Request> received = new CopyOnWriteArrayList<>();
    private WorkerHarness workers;
    private HttpServer server;
    private String base;

    @BeforeEach
    void start() throws IOException {
        workers = new WorkerHarness(connections.commands(), keys);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
        server.createContext("/", this::agent);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        workers.close();
    }

    @Test
    void postsTheTaskWithAuthAndIdempotencyKeyAndCompletesWithTheAgentsOutput() throws Exception {
        String agent = register("/ok", "{\"type\":\"bearer\",\"token\":\"s3cret\"}", 2000, 2);

        String token = send(agent, "{\"query\":\"weather\"}");
        Map<String, String> completion = workers.awaitCompletion(token);

        assertThat(completion.get("status")).isEqualTo("completed");
        assertThat(json(completion.get("output"))).isEqualTo(json("{\"result\":\"sunny\",\"echo\":\"weather\"}"));
        Request request = received.get(0);
        assertThat(request.body()).isEqualTo(json("{\"task_id\":\"" + token + "\",\"input\":{\"query\":\"weather\"}}"));
        assertThat(request.authorization()).isEqualTo("Bearer s3cret");
        assertThat(request.idempotencyKey()).isEqualTo(token);
        assertThat(request.traceparent()).as("the run's trace, the token's node span")
                .isEqualTo(TraceIds.traceparent(UUID.fromString(completion.get("run")), token));
    }

    @Test
    void retriesServerErrorsWithBackoffUntilTheAgentSucceeds() throws Exception {
        String agent = register("/flaky", null, 2000, 3);

        Map<String, String> completion = workers.awaitCompletion(send(agent, "{\"query\":\"x\"}"));

        assertThat(completion.get("status")).isEqualTo("completed");
        assertThat(calls.get("/flaky").get()).isEqualTo(3);
        assertThat(received).extracting(Request::idempotencyKey).containsOnly(received.get(0).idempotencyKey());
    }

    @Test
    void aClientErrorFailsAtOnceWithoutRetrying() throws Exception {
        String agent = register("/bad", null, 2000, 3);

        JsonNode error = json(workers.awaitCompletion(send(agent, "{}")).get("error"));

        assertThat(error.get("kind").asString()).isEqualTo("permanent");
        assertThat(error.get("code").asString()).isEqualTo("http_422");
        assertThat(calls.get("/bad").get()).isEqualTo(1);
    }

    @Test
    void timeoutsAreRetriedAndThenFailTransiently() throws Exception {
        String agent = register("/slow", null, 200, 1);

        JsonNode error = json(workers.awaitCompletion(send(agent, "{}")).get("error"));

        assertThat(error.get("kind").asString()).isEqualTo("transient");
        assertThat(error.get("code").asString()).isEqualTo("timeout");
        assertThat(error.get("message").asString()).contains("after 2 calls");
        assertThat(calls.get("/slow").get()).isEqualTo(2);
    }

    @Test
    void anAgentReportingAnErrorFailsTheNodeWithItsMessage() throws Exception {
        String agent = register("/refuses", null, 2000, 3);

        JsonNode error = json(workers.awaitCompletion(send(agent, "{}")).get("error"));

        assertThat(error.get("code").asString()).isEqualTo("agent_error");
        assertThat(error.get("message").asString()).contains("quota exceeded");
        assertThat(calls.get("/refuses").get()).isEqualTo(1);
    }

    @Test
    void anUnknownAgentFailsNamingTheRegistry() {
        JsonNode error = json(workers.awaitCompletion(send("nobody-" + UUID.randomUUID().toString().substring(0, 6),
                "{}")).get("error"));

        assertThat(error.get("code").asString()).isEqualTo("unknown_agent");
        assertThat(error.get("message").asString()).contains("PUT /api/v1/agents/nobody-");
    }

    @Test
    void anAgentOfAnotherTenantIsUnknownToThisTenantsRuns() {
        String tenant = "agents-" + UUID.randomUUID().toString().substring(0, 8);
        String name = "theirs-" + tenant;
        jdbc.sql("insert into tenants (id, name, created_at, created_by) values (?, ?, now(), 'test')")
                .params(tenant, tenant).update();
        jdbc.sql("insert into agents (tenant_id, name, url, created_at, updated_at) values (?, ?, ?, now(), now())")
                .params(tenant, name, base + "/ok").update();

        JsonNode error = json(workers.awaitCompletion(send(name, "{}")).get("error"));

        assertThat(error.get("code").asString()).isEqualTo("unknown_agent");
        assertThat(error.get("message").asString()).contains("registry of tenant 'default'");
        assertThat(calls).isEmpty();
    }

    private String register(String path, String auth, int timeoutMs, int maxRetries) throws Exception {
        String name = "agent-" + UUID.randomUUID().toString().substring(0, 8);
        String body = "{\"url\":\"" + base + path + "\",\"timeoutMs\":" + timeoutMs + ",\"retryPolicy\":{\"maxRetries\":"
                + maxRetries + ",\"initialDelayMs\":20,\"maxDelayMs\":100}" + (auth == null ? "" : ",\"auth\":" + auth)
                + "}";
        mvc.perform(put("/api/v1/agents/" + name).contentType(MediaType.APPLICATION_JSON).content(body)
                .with(user("root").roles("ADMIN")).with(csrf())).andExpect(status().isOk());
        return name;
    }

    private String send(String agent, String input) {
        return workers.send("http_agent", workers.startRunOfAWorkflow(jdbc), input, "{\"agent\":\"" + agent + "\"}");
    }

    private void agent(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        int call = calls.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
        JsonNode body = json(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        received.add(new Request(body, exchange.getRequestHeaders().getFirst("Authorization"),
                exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                exchange.getRequestHeaders().getFirst("traceparent")));
        String taskId = body.path("task_id").asString();
        switch (path) {
            case "/ok" -> respond(exchange, 200, "{\"task_id\":\"" + taskId + "\",\"status\":\"success\","
                    + "\"output\":{\"result\":\"sunny\",\"echo\":\"" + body.at("/input/query").asString() + "\"},"
                    + "\"error\":null}");
            case "/flaky" -> respond(exchange, call < 3 ? 503 : 200, call < 3 ? "busy"
                    : "{\"status\":\"success\",\"output\":{\"attempt\":" + call + "}}");
            case "/bad" -> respond(exchange, 422, "{\"detail\":\"input.query is required\"}");
            case "/refuses" -> respond(exchange, 200, "{\"status\":\"error\",\"output\":null,"
                    + "\"error\":\"quota exceeded\"}");
            case "/slow" -> slow(exchange);
            default -> respond(exchange, 404, "");
        }
    }

    private static void slow(HttpExchange exchange) throws IOException {
        try {
            Thread.sleep(1500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        respond(exchange, 200, "{\"status\":\"success\",\"output\":{}}");
    }

    private static void respond(HttpExchange exchange, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        } catch (IOException clientGaveUp) {
            // the worker timed out and closed the connection
        }
    }

    private record Request(JsonNode body, String authorization, String idempotencyKey, String traceparent) {
    }
}
