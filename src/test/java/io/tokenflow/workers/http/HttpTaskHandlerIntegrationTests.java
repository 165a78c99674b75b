package io.tokenflow.workers.http;

import static io.tokenflow.workers.TestTasks.failure;
import static io.tokenflow.workers.TestTasks.json;
import static io.tokenflow.workers.TestTasks.output;
import static io.tokenflow.workers.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tokenflow.workers.FailureKind;
import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskResult;
import io.tokenflow.workers.TestTasks;
import tools.jackson.databind.JsonNode;

/** The HTTP handler against a real HTTP server on 127.0.0.1. */
class HttpTaskHandlerIntegrationTests {

    private final HttpTaskHandler handler = new HttpTaskHandler(TestTasks.JSON);
    private final AtomicReference<Recorded> last = new AtomicReference<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private HttpServer server;
    private String base;

    record Recorded(String method, String uri, String idempotencyKey, String userAgent, String contentType,
                    String custom, String body) {
    }

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/json", exchange -> respond(exchange, 200, "application/json", "{\"ok\":true,\"n\":1}"));
        server.createContext("/text", exchange -> respond(exchange, 201, "text/plain; charset=utf-8", "héllo"));
        server.createContext("/missing", exchange -> respond(exchange, 404, "text/plain", "no such thing"));
        server.createContext("/broken", exchange -> respond(exchange, 500, "text/plain", "oops"));
        server.createContext("/big", exchange -> respond(exchange, 200, "text/plain",
                "x".repeat(HttpTaskHandler.MAX_BODY_BYTES + 1)));
        server.createContext("/slow", exchange -> {
            awaitRelease();
            respond(exchange, 200, "application/json", "{}");
        });
        server.setExecutor(executor);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    @Test
    void completesWithStatusHeadersAndParsedJsonBody() {
        JsonNode output = output(run("{}", "{\"url\":\"" + base + "/json\"}"));

        assertThat(output.get("status").asInt()).isEqualTo(200);
        assertThat(output.get("headers").get("content-type").stringValue()).isEqualTo("application/json");
        assertThat(output.get("body")).isEqualTo(json("{\"ok\":true,\"n\":1}"));
        assertThat(last.get().method()).isEqualTo("GET");
        assertThat(last.get().userAgent()).isEqualTo("Tokenflow");
    }

    @Test
    void keepsATextBodyAsText() {
        JsonNode output = output(run("{}", "{\"url\":\"" + base + "/text\"}"));

        assertThat(output.get("status").asInt()).isEqualTo(201);
        assertThat(output.get("body").stringValue()).isEqualTo("héllo");
    }

    @Test
    void sendsTheTokenIdAsIdempotencyKey() {
        Task task = task("http", "{}", "{\"url\":\"" + base + "/json\"}");

        output(handler.execute(task));

        assertThat(last.get().idempotencyKey()).isEqualTo(task.token());
    }

    @Test
    void templatesUrlHeadersAndBodyFromTheInput() {
        String input = "{\"user\":{\"id\":42,\"name\":\"Ada Lovelace\"},\"order\":{\"items\":[1,2]}}";
        String config = "{\"method\":\"post\","
                + "\"url\":\"" + base + "/json?id={{input.user.id}}&name={{input.user.name}}\","
                + "\"headers\":{\"X-Custom\":\"user-{{input.user.id}}\"},"
                + "\"body\":{\"order\":\"{{input.order}}\",\"note\":\"for {{input.user.name}}\",\"fixed\":1}}";

        output(run(input, config));

        Recorded request = last.get();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.uri()).isEqualTo("/json?id=42&name=Ada%20Lovelace");
        assertThat(request.custom()).isEqualTo("user-42");
        assertThat(request.contentType()).isEqualTo("application/json");
        assertThat(json(request.body())).isEqualTo(json(
                "{\"order\":{\"items\":[1,2]},\"note\":\"for Ada Lovelace\",\"fixed\":1}"));
    }

    @Test
    void aClientErrorFailsPermanently() {
        TaskResult.Failed failed = failure(run("{}", "{\"url\":\"" + base + "/missing\"}"));

        assertThat(failed.kind()).isEqualTo(FailureKind.PERMANENT);
        assertThat(failed.code()).isEqualTo("http_404");
        assertThat(failed.message()).contains("but got 404: no such thing");
    }

    @Test
    void aServerErrorFailsTransiently() {
        TaskResult.Failed failed = failure(run("{}", "{\"url\":\"" + base + "/broken\"}"));

        assertThat(failed.kind()).isEqualTo(FailureKind.TRANSIENT);
        assertThat(failed.code()).isEqualTo("http_500");
    }

    @Test
    void aTimeoutFailsTransiently() {
        TaskResult.Failed failed = failure(run("{}", "{\"url\":\"" + base + "/slow\",\"timeout_ms\":200}"));

        assertThat(failed.kind()).isEqualTo(FailureKind.TRANSIENT);
        assertThat(failed.code()).isEqualTo("timeout");
    }

    @Test
    void aRefusedConnectionFailsTransiently() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }

        TaskResult.Failed failed = failure(run("{}", "{\"url\":\"http://127.0.0.1:" + closedPort + "/\"}"));

        assertThat(failed.kind()).isEqualTo(FailureKind.TRANSIENT);
        assertThat(failed.code()).isEqualTo("network");
    }

    @Test
    void aTooLargeResponseFailsPermanently() {
        TaskResult.Failed failed = failure(run("{}", "{\"url\":\"" + base + "/big\"}"));

        assertThat(failed.kind()).isEqualTo(FailureKind.PERMANENT);
        assertThat(failed.code()).isEqualTo("response_too_large");
    }

    @Test
    void refusesUrlsThatAreNotHttp() {
        for (String url : new String[] {"file:///etc/passwd", "ftp://127.0.0.1/x", "not a url", "/relative"}) {
            TaskResult.Failed failed = failure(run("{}", "{\"url\":\"" + url + "\"}"));

            assertThat(failed.kind()).isEqualTo(FailureKind.PERMANENT);
            assertThat(failed.code()).isEqualTo("invalid_url");
        }
    }

    private TaskResult run(String input, String config) {
        return handler.execute(task("http", input, config));
    }

    private void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] request = exchange.getRequestBody().readAllBytes();
        last.set(new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                exchange.getRequestHeaders().getFirst("User-Agent"),
                exchange.getRequestHeaders().getFirst("Content-Type"),
                exchange.getRequestHeaders().getFirst("X-Custom"), new String(request, StandardCharsets.UTF_8)));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        } catch (IOException e) {
            // the client gave up reading (the too-large and time-out cases)
        }
    }

    private void awaitRelease() {
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
