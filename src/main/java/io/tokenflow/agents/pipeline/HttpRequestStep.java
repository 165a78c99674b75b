package io.tokenflow.agents.pipeline;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentSettings;
import io.tokenflow.agents.BoundedHttp;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * {@code http_request}: one HTTP call; its result is the response body (parsed when it is JSON, else text). Only
 * http(s) URLs of the allowed hosts ({@code tokenflow.agents.pipeline.allowed-hosts}, any when empty); bounded by
 * {@code http-timeout} and {@code max-response-bytes}; a non-2xx answer fails the step.
 */
@Component
class HttpRequestStep implements PipelineStep {

    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

    private final HttpClient client;
    private final AgentSettings.Pipeline limits;
    private final JsonMapper json;

    HttpRequestStep(AgentSettings settings, JsonMapper json) {
        this.limits = settings.pipeline();
        this.json = json;
        this.client = HttpClient.newBuilder().connectTimeout(limits.httpTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public String name() {
        return "http_request";
    }

    @Override
    public String usage() {
        return "{\"step\":\"http_request\",\"url\":\"https://api.example.com/search\",\"method\":\"GET\"?,"
                + "\"params\":{...}?,\"headers\":{...}?,\"body\":{...}?} calls an API; the result is its body";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        String method = Rows.text(step, "method", "GET").toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new PipelineException("Expected \"method\" among " + METHODS + ", but found " + method);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(step)).timeout(limits.httpTimeout())
                .header("User-Agent", "Tokenflow-agent").header("Accept", "application/json, text/*;q=0.5");
        for (Map.Entry<String, JsonNode> header : step.path("headers").properties()) {
            request.header(header.getKey(), header.getValue().asString(header.getValue().toString()));
        }
        JsonNode body = step.path("body");
        if (body.isMissingNode() || body.isNull()) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
        }
        return send(request.build());
    }

    private URI uri(JsonNode step) throws PipelineException {
        StringBuilder url = new StringBuilder(Rows.text(step, "url"));
        char separator = url.indexOf("?") < 0 ? '?' : '&';
        for (Map.Entry<String, JsonNode> param : step.path("params").properties()) {
            url.append(separator).append(encode(param.getKey())).append('=')
                    .append(encode(param.getValue().asString(param.getValue().toString())));
            separator = '&';
        }
        try {
            URI uri = new URI(url.toString());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new PipelineException("Expected \"url\" to be an http or https URL with a host, but found "
                        + url);
            }
            List<String> allowed = limits.allowedHosts();
            if (!allowed.isEmpty() && !allowed.contains(uri.getHost().toLowerCase(Locale.ROOT))) {
                throw new PipelineException("Expected a host among " + allowed
                        + " (tokenflow.agents.pipeline.allowed-hosts), but found " + uri.getHost());
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new PipelineException("Expected \"url\" to be a URL, but: " + e.getMessage());
        }
    }

    private JsonNode send(HttpRequest request) throws PipelineException {
        String call = request.method() + " " + request.uri();
        try {
            BoundedHttp.Response response = BoundedHttp.send(client, request, limits.maxResponseBytes());
            if (!response.successful()) {
                throw new PipelineException("Expected a 2xx response to " + call + ", but got " + response.status()
                        + (response.body().length == 0 ? "" : ": " + response.snippet()));
            }
            return body(response.text(), response.contentType());
        } catch (BoundedHttp.TooLarge e) {
            throw new PipelineException(e.getMessage());
        } catch (IOException e) {
            throw new PipelineException("Expected a response to " + call + ", but: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PipelineException("Expected a response to " + call + ", but the worker was interrupted");
        }
    }

    private JsonNode body(String text, String contentType) {
        if (contentType.toLowerCase(Locale.ROOT).contains("json") && !text.isBlank()) {
            try {
                return json.readTree(text);
            } catch (JacksonException notJson) {
                return JsonNodeFactory.instance.stringNode(text);
            }
        }
        return JsonNodeFactory.instance.stringNode(text);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
