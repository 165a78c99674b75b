package io.tokenflow.workers.http;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.tokenflow.workers.Task;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Builds the request of an {@code http} node from its config, templated from the task (see {@link Placeholders}). */
final class RequestFactory {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration LONGEST_TIMEOUT = Duration.ofMinutes(10);
    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD");

    private final JsonMapper json;

    RequestFactory(JsonMapper json) {
        this.json = json;
    }

    /** @param timeout how long the whole exchange may take */
    record Prepared(HttpRequest request, Duration timeout) {
    }

    Prepared prepare(Task task) throws HttpTaskException {
        JsonNode config = task.config();
        Placeholders placeholders = new Placeholders(task);
        String method = method(config.path("method"));
        Duration timeout = timeout(config.path("timeout_ms"));
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(config.path("url"), placeholders)).timeout(timeout);
        try {
            boolean typed = headers(builder, config.path("headers"), placeholders);
            builder.setHeader("Idempotency-Key", task.token()).setHeader("User-Agent", "Tokenflow");
            if (!hasHeader(config.path("headers"), "traceparent")) {
                builder.setHeader("traceparent", task.traceContext());
            }
            body(builder, method, config.path("body"), placeholders, typed);
            return new Prepared(builder.build(), timeout);
        } catch (IllegalArgumentException e) {
            throw HttpTaskException.permanent("invalid_config",
                    "Expected a valid HTTP request, but: " + e.getMessage());
        }
    }

    private static boolean hasHeader(JsonNode headers, String name) {
        return headers.isObject() && headers.propertyNames().stream().anyMatch(name::equalsIgnoreCase);
    }

    private static String method(JsonNode method) throws HttpTaskException {
        String name = method.isMissingNode() || method.isNull() ? "GET"
                : method.isString() ? method.stringValue().toUpperCase(Locale.ROOT) : method.toString();
        if (!METHODS.contains(name)) {
            throw HttpTaskException.permanent("invalid_config", "Expected config.method among " + METHODS
                    + ", but found " + name);
        }
        return name;
    }

    private static Duration timeout(JsonNode millis) throws HttpTaskException {
        if (millis.isMissingNode() || millis.isNull()) {
            return DEFAULT_TIMEOUT;
        }
        if (!millis.isNumber() || millis.asLong() < 1) {
            throw HttpTaskException.permanent("invalid_config", "Expected config.timeout_ms to be a number of "
                    + "milliseconds >= 1, but found " + millis);
        }
        Duration timeout = Duration.ofMillis(millis.asLong());
        return timeout.compareTo(LONGEST_TIMEOUT) > 0 ? LONGEST_TIMEOUT : timeout;
    }

    private static URI uri(JsonNode url, Placeholders placeholders) throws HttpTaskException {
        if (!url.isString() || url.stringValue().isBlank()) {
            throw HttpTaskException.permanent("invalid_url", "Expected config.url to be a URL, but found "
                    + (url.isMissingNode() ? "none" : url.toString()));
        }
        String text = placeholders.interpolate(url.stringValue(), "config.url", RequestFactory::urlEncode);
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return uri;
            }
        } catch (java.net.URISyntaxException e) {
            throw HttpTaskException.permanent("invalid_url", "Expected config.url to be a URL, but: " + e.getMessage());
        }
        throw HttpTaskException.permanent("invalid_url", "Expected an http or https URL with a host, but found "
                + text);
    }

    /** Sets the configured headers; returns whether they name a Content-Type. */
    private static boolean headers(HttpRequest.Builder builder, JsonNode headers, Placeholders placeholders)
            throws HttpTaskException {
        if (headers.isMissingNode() || headers.isNull()) {
            return false;
        }
        if (!headers.isObject()) {
            throw HttpTaskException.permanent("invalid_config", "Expected config.headers to be an object of "
                    + "strings, but found " + headers);
        }
        boolean typed = false;
        for (Map.Entry<String, JsonNode> header : headers.properties()) {
            String where = "config.headers." + header.getKey();
            String value = header.getValue().isString() ? header.getValue().stringValue()
                    : header.getValue().toString();
            builder.setHeader(header.getKey(), placeholders.interpolate(value, where, text -> text));
            typed |= header.getKey().equalsIgnoreCase("Content-Type");
        }
        return typed;
    }

    private void body(HttpRequest.Builder builder, String method, JsonNode template, Placeholders placeholders,
                      boolean typed) throws HttpTaskException {
        if (template.isMissingNode() || template.isNull()) {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
            return;
        }
        JsonNode body = placeholders.expand(template, "config.body");
        boolean text = body.isString();
        if (!typed) {
            builder.setHeader("Content-Type", text ? "text/plain; charset=utf-8" : "application/json");
        }
        builder.method(method, text ? HttpRequest.BodyPublishers.ofString(body.stringValue(), StandardCharsets.UTF_8)
                : HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
    }

    private static String urlEncode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
