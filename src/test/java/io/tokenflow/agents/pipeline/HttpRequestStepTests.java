package io.tokenflow.agents.pipeline;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tokenflow.agents.AgentSettings;
import tools.jackson.databind.JsonNode;

/** http_request against a fake API on a real port, then sorted like the seed's flight example. */
class HttpRequestStepTests {

    private HttpServer server;
    private String base;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/search", this::search);
        server.createContext("/big", exchange -> respond(exchange, 200, "\"" + "x".repeat(2000) + "\""));
        server.createContext("/down", exchange -> respond(exchange, 503, "maintenance"));
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void callsTheApiWithParamsAndFeedsItsBodyToTheNextStep() throws Exception {
        Pipeline pipeline = PipelineTests.pipeline(new AgentSettings.Pipeline(0, 0, null, 0, null, 0));

        JsonNode result = pipeline.run(json("[{\"step\":\"http_request\",\"url\":\"" + base + "/search\","
                + "\"params\":{\"origin\":\"NYC\",\"dest\":\"LAX\"}},{\"step\":\"table_sort\",\"field\":\"price\"},"
                + "{\"step\":\"top_k\",\"k\":1}]"), json("{}"), Map.of());

        assertThat(result).isEqualTo(json("[{\"airline\":\"B6\",\"price\":199,\"query\":\"origin=NYC&dest=LAX\"}]"));
    }

    @Test
    void refusesFailedCallsLargeBodiesOtherSchemesAndHostsNotAllowed() {
        Pipeline pipeline = PipelineTests.pipeline(new AgentSettings.Pipeline(0, 0, null, 1000, null, 0));
        assertThatThrownBy(() -> call(pipeline, base + "/down")).hasMessageContaining("got 503: maintenance");
        assertThatThrownBy(() -> call(pipeline, base + "/big")).hasMessageContaining("at most 1000 bytes");
        assertThatThrownBy(() -> call(pipeline, "file:///etc/passwd")).hasMessageContaining("http or https URL");
        Pipeline guarded = PipelineTests.pipeline(new AgentSettings.Pipeline(0, 0, null, 0,
                List.of("api.example.com"), 0));
        assertThatThrownBy(() -> call(guarded, base + "/search")).hasMessageContaining("[api.example.com]")
                .hasMessageContaining("allowed-hosts");
    }

    private static JsonNode call(Pipeline pipeline, String url) throws PipelineException {
        return pipeline.run(json("[{\"step\":\"http_request\",\"url\":\"" + url + "\"}]"), json("{}"), Map.of());
    }

    private void search(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        respond(exchange, 200, "[{\"airline\":\"DL\",\"price\":299,\"query\":\"" + query + "\"},"
                + "{\"airline\":\"B6\",\"price\":199,\"query\":\"" + query + "\"}]");
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
