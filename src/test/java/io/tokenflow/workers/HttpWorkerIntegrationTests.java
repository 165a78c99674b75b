package io.tokenflow.workers;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

/** The http worker calls a real HTTP server for tokens from a real Redis stream. */
@WorkerIntegrationTest
class HttpWorkerIntegrationTests {

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    private final Map<String, String> bodiesByIdempotencyKey = new ConcurrentHashMap<>();
    private WorkerHarness harness;
    private HttpServer server;
    private String base;

    @BeforeEach
    void start() throws IOException {
        harness = new WorkerHarness(connections.commands(), keys);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/orders", this::order);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        harness.close();
    }

    @Test
    void callsTheTemplatedEndpointWithTheTokenAsIdempotencyKey() {
        UUID run = harness.startRun();
        String token = harness.send("http", run, "{\"id\":7,\"order\":{\"qty\":2}}", "{\"method\":\"PUT\","
                + "\"url\":\"" + base + "/orders/{{input.id}}\",\"body\":{\"order\":\"{{input.order}}\"}}");

        JsonNode output = json(harness.awaitCompletion(token).get("output"));

        assertThat(output.get("status").asInt()).isEqualTo(200);
        assertThat(output.get("body")).isEqualTo(json("{\"path\":\"/orders/7\",\"method\":\"PUT\"}"));
        assertThat(json(bodiesByIdempotencyKey.get(token))).isEqualTo(json("{\"order\":{\"qty\":2}}"));
    }

    @Test
    void aNotFoundAnswerFailsPermanently() {
        UUID run = harness.startRun();
        String token = harness.send("http", run, "{}", "{\"url\":\"" + base + "/nowhere\"}");

        JsonNode error = json(harness.awaitCompletion(token).get("error"));

        assertThat(error.get("kind").stringValue()).isEqualTo("permanent");
        assertThat(error.get("code").stringValue()).isEqualTo("http_404");
    }

    private void order(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        bodiesByIdempotencyKey.put(exchange.getRequestHeaders().getFirst("Idempotency-Key"), body);
        byte[] answer = ("{\"path\":\"" + exchange.getRequestURI().getPath() + "\",\"method\":\""
                + exchange.getRequestMethod() + "\"}").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }
}
