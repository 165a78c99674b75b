package io.tokenflow.workers.http;

import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An HTTP response as a node's output: {@code {"status": 200, "headers": {...}, "body": ...}}, with header names in
 * lower case (first value of each) and the body parsed when its content type is JSON, text otherwise.
 */
final class ResponseOutput {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final JsonMapper json;

    ResponseOutput(JsonMapper json) {
        this.json = json;
    }

    ObjectNode toJson(HttpResponse<byte[]> response) {
        ObjectNode output = NODES.objectNode();
        output.put("status", response.statusCode());
        output.set("headers", headers(response.headers().map()));
        output.set("body", body(response));
        return output;
    }

    private static ObjectNode headers(Map<String, List<String>> headers) {
        Map<String, String> sorted = new TreeMap<>();
        headers.forEach((name, values) -> {
            if (!name.startsWith(":") && !values.isEmpty()) {
                sorted.putIfAbsent(name.toLowerCase(Locale.ROOT), values.get(0));
            }
        });
        ObjectNode node = NODES.objectNode();
        sorted.forEach(node::put);
        return node;
    }

    private JsonNode body(HttpResponse<byte[]> response) {
        byte[] bytes = response.body();
        String contentType = response.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT);
        if (bytes.length > 0 && contentType.contains("json")) {
            try {
                return json.readTree(bytes);
            } catch (JacksonException e) {
                return NODES.stringNode(new String(bytes, charset(contentType)));
            }
        }
        return NODES.stringNode(new String(bytes, charset(contentType)));
    }

    static String snippet(HttpResponse<byte[]> response) {
        String text = new String(response.body(), StandardCharsets.UTF_8).strip();
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }

    private static Charset charset(String contentType) {
        int at = contentType.indexOf("charset=");
        if (at < 0) {
            return StandardCharsets.UTF_8;
        }
        String name = contentType.substring(at + "charset=".length()).split("[;\\s]")[0].replace("\"", "");
        try {
            return Charset.forName(name);
        } catch (IllegalArgumentException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
