package io.tokenflow.agents;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.support.TestPropertySourceUtils;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI-compatible chat-completions server on a real port ({@code POST /v1/chat/completions}) whose answers come
 * from a scripted "brain": a function from the request to the assistant message. It records every request.
 */
public final class FakeLlmServer {

    public static final FakeLlmServer INSTANCE = new FakeLlmServer();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final HttpServer server;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private volatile Function<JsonNode, JsonNode> brain = request -> answer("no brain set");
    private volatile long tokensPerCall = 10;
    private volatile int status = 200;

    private FakeLlmServer() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/chat/completions", this::complete);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Answers from now on with {@code brain}, charging {@code tokens} per call; forgets earlier requests. */
    public void script(Function<JsonNode, JsonNode> script, long tokens) {
        requests.clear();
        this.brain = script;
        this.tokensPerCall = tokens;
        this.status = 200;
    }

    /** Answers every call with an error status. */
    public void failWith(int errorStatus) {
        requests.clear();
        this.status = errorStatus;
    }

    public List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    /** How many tool results the conversation in a request already holds. */
    public static int toolResults(JsonNode request) {
        int count = 0;
        for (JsonNode message : request.path("messages")) {
            count += message.path("role").asString("").equals("tool") ? 1 : 0;
        }
        return count;
    }

    /** The content of the last tool message of a request. */
    public static String lastToolResult(JsonNode request) {
        String last = null;
        for (JsonNode message : request.path("messages")) {
            if (message.path("role").asString("").equals("tool")) {
                last = message.path("content").asString();
            }
        }
        return last;
    }

    public static ObjectNode answer(String content) {
        return NODES.objectNode().put("role", "assistant").put("content", content);
    }

    /** An assistant message calling one tool with JSON-text arguments, as OpenAI sends them. */
    public static ObjectNode toolCall(String id, String tool, String arguments) {
        ObjectNode message = NODES.objectNode().put("role", "assistant");
        message.putNull("content");
        ArrayNode calls = message.putArray("tool_calls");
        ObjectNode call = calls.addObject().put("id", id).put("type", "function");
        call.putObject("function").put("name", tool).put("arguments", arguments);
        return message;
    }

    private void complete(HttpExchange exchange) throws IOException {
        JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
        requests.add(request);
        if (status != 200) {
            respond(exchange, status, "{\"error\":{\"message\":\"scripted failure\"}}");
            return;
        }
        JsonNode message = brain.apply(request);
        ObjectNode body = NODES.objectNode().put("id", "chatcmpl-" + requests.size()).put("object", "chat.completion")
                .put("model", request.path("model").asString());
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.put("finish_reason", message.has("tool_calls") ? "tool_calls" : "stop");
        body.putObject("usage").put("prompt_tokens", tokensPerCall - 1).put("completion_tokens", 1)
                .put("total_tokens", tokensPerCall);
        respond(exchange, 200, body.toString());
    }

    private static void respond(HttpExchange exchange, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Points {@code tokenflow.agents.llm.base-url} at this server. */
    public static class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestPropertySourceUtils.addInlinedPropertiesToEnvironment(context,
                    "tokenflow.agents.llm.base-url=" + INSTANCE.baseUrl());
        }
    }
}
