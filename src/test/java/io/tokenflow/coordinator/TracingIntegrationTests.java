package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.lettuce.core.StreamMessage;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.tokenflow.tracing.TraceIds;

/**
 * Traces as an operator's collector receives them: {@code tokenflow.tracing.otlp-endpoint} points at an in-process
 * OTLP/HTTP receiver (the real protocol: protobuf {@code ExportTraceServiceRequest}s on {@code /v1/traces}); a
 * fan-out/fan-in run is started over the REST API, its one branch a task that fails once at an external worker (which
 * reads {@code traceparent} from its token) and is retried, its other an HTTP node (whose request carries
 * {@code traceparent}). The run is one trace: the run's span, a span per node execution under it, a span per attempt
 * and per routing step (the Lua step that routes a completion) under those, with the ids every process derives alike.
 */
class TracingIntegrationTests extends OperatorTests {

    private static final HttpServer SERVER = server();
    private static final List<Span> SPANS = new CopyOnWriteArrayList<>();
    private static final Map<String, String> TRACEPARENTS = new ConcurrentHashMap<>();

    @DynamicPropertySource
    static void collector(DynamicPropertyRegistry registry) {
        registry.add("tokenflow.tracing.otlp-endpoint", () -> "http://127.0.0.1:" + SERVER.getAddress().getPort()
                + "/v1/traces");
        registry.add("tokenflow.tracing.ui-url", () -> "http://traces.example/trace/{traceId}");
    }

    @AfterAll
    static void stop() {
        SERVER.stop(0);
    }

    @Test
    void aFanOutFanInRunIsOneTraceOfNodeAttemptAndStepSpans() throws Exception {
        String charge = api.customType("charge");
        String workflow = api.created("""
                {"name": "traced-%s", "nodes": [
                  {"id": "split", "type": "function", "config": {"function": "echo"}},
                  {"id": "charge", "type": "%s", "retry": {"max_attempts": 2, "backoff_ms": 50, "jitter": 0}},
                  {"id": "ship", "type": "http", "config": {"url": "http://127.0.0.1:%d/ship", "method": "POST"}},
                  {"id": "done", "type": "function", "config": {"function": "echo"}, "wait_for_all": true}],
                 "edges": [{"from": "split", "to": "charge"}, {"from": "split", "to": "ship"},
                           {"from": "charge", "to": "done"}, {"from": "ship", "to": "done"}]}"""
                .formatted(UUID.randomUUID(), charge, SERVER.getAddress().getPort()));
        UUID run = api.start(workflow);
        String trace = TraceIds.traceId(run);
        ManualWorker worker = api.worker(charge);
        StreamMessage<String, String> first = worker.takeOne(Duration.ofSeconds(10));
        String chargeToken = first.getBody().get("token");
        assertThat(first.getBody().get("traceparent")).as("the token tells its worker where it belongs")
                .isEqualTo("00-" + trace + "-" + TraceIds.nodeSpan(chargeToken) + "-01");
        worker.failTransiently(first, "gateway busy");
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{\"charged\": true}");
        api.awaitStatus(run, "COMPLETED");

        Span root = await().atMost(Duration.ofSeconds(30)).until(() -> spansOf(trace).stream()
                .filter(span -> span.getName().startsWith("run ")).findFirst().orElse(null), span -> span != null);
        await().atMost(Duration.ofSeconds(10)).until(() -> spansOf(trace).stream()
                .filter(span -> span.getName().equals("route-completion")).count() >= 4);
        List<Span> spans = spansOf(trace);
        assertThat(hex(root.getSpanId())).isEqualTo(TraceIds.runSpan(run));
        assertThat(root.getParentSpanId().isEmpty()).isTrue();
        assertThat(root.getName()).isEqualTo("run " + workflow);
        assertThat(root.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_OK);

        Map<String, Span> nodes = spans.stream().filter(span -> span.getName().startsWith("node "))
                .collect(Collectors.toMap(span -> attribute(span, "tokenflow.node_id"), span -> span));
        assertThat(nodes).containsOnlyKeys("split", "charge", "ship", "done");
        nodes.values().forEach(node -> {
            assertThat(hex(node.getParentSpanId())).isEqualTo(TraceIds.runSpan(run));
            assertThat(hex(node.getSpanId())).isEqualTo(TraceIds.nodeSpan(attribute(node, "tokenflow.token_id")));
            assertThat(node.getStartTimeUnixNano()).isBetween(root.getStartTimeUnixNano(), node.getEndTimeUnixNano());
            assertThat(node.getEndTimeUnixNano()).isLessThanOrEqualTo(root.getEndTimeUnixNano());
        });
        assertThat(attribute(nodes.get("charge"), "tokenflow.node_type")).isEqualTo(charge);

        List<Span> attempts = spans.stream().filter(span -> span.getName().startsWith("attempt ")
                && hex(span.getParentSpanId()).equals(TraceIds.nodeSpan(chargeToken))).toList();
        assertThat(attempts).extracting(span -> attribute(span, "tokenflow.outcome"))
                .containsExactlyInAnyOrder("retried", "completed");
        assertThat(attempts).filteredOn(span -> attribute(span, "tokenflow.outcome").equals("retried")).singleElement()
                .satisfies(span -> assertThat(span.getStatus().getMessage()).contains("gateway busy"));

        String shipToken = attribute(nodes.get("ship"), "tokenflow.token_id");
        assertThat(TRACEPARENTS.get("/ship")).as("the HTTP node's request carries the trace")
                .isEqualTo("00-" + trace + "-" + TraceIds.nodeSpan(shipToken) + "-01");
        assertThat(spans).filteredOn(span -> span.getName().equals("route-completion"))
                .extracting(step -> hex(step.getParentSpanId())).as("a routing step under each node's completion")
                .containsExactlyInAnyOrderElementsOf(nodes.values().stream().map(node -> hex(node.getSpanId()))
                        .toList());
        assertThat(spans).allSatisfy(span -> assertThat(hex(span.getTraceId())).isEqualTo(trace));
        assertThat(api.call(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get("/runs/" + run))
                .andReturn().getResponse().getContentAsString())
                .contains("href=\"http://traces.example/trace/" + trace + "\"");
        System.out.println("Tracing: run " + run + " is trace " + trace + " of " + spans.size() + " spans (1 run, "
                + nodes.size() + " nodes, " + spans.stream().filter(span -> span.getName().startsWith("attempt "))
                .count() + " attempts, " + spans.stream().filter(span -> span.getName().equals("route-completion"))
                .count() + " routing steps)");
    }

    private static List<Span> spansOf(String trace) {
        return SPANS.stream().filter(span -> hex(span.getTraceId()).equals(trace)).toList();
    }

    private static String attribute(Span span, String key) {
        return span.getAttributesList().stream().filter(attribute -> attribute.getKey().equals(key))
                .map(KeyValue::getValue).map(value -> value.hasStringValue() ? value.getStringValue()
                        : Long.toString(value.getIntValue())).findFirst().orElse(null);
    }

    private static String hex(com.google.protobuf.ByteString bytes) {
        StringBuilder hex = new StringBuilder();
        for (byte b : bytes.toByteArray()) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }

    private static HttpServer server() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/v1/traces", TracingIntegrationTests::traces);
            server.createContext("/ship", exchange -> {
                TRACEPARENTS.put("/ship", String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
                respond(exchange, "application/json", "{\"shipped\": true}".getBytes(StandardCharsets.UTF_8));
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void traces(HttpExchange exchange) throws IOException {
        ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(exchange.getRequestBody());
        for (ResourceSpans resource : request.getResourceSpansList()) {
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                SPANS.addAll(scope.getSpansList());
            }
        }
        respond(exchange, "application/x-protobuf", new byte[0]);
    }

    private static void respond(HttpExchange exchange, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        exchange.close();
    }
}
