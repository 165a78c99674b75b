package io.tokenflow.agents.registry;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

import io.tokenflow.web.BadRequestException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * How Tokenflow authenticates to an external agent: {@code none}, {@code bearer} ({@code token}), {@code header}
 * ({@code name}, {@code value}) or {@code basic} ({@code username}, {@code password}). The secret is sent, stored,
 * and never shown: {@link #redacted()} is what the API answers.
 */
public record AgentAuth(String type, String name, String user, String secret) {

    private static final Set<String> TYPES = Set.of("none", "bearer", "header", "basic");
    private static final String HEADER_NAME = "[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}";

    public static final AgentAuth NONE = new AgentAuth("none", null, null, null);

    /** The headers to send. */
    public Map<String, String> headers() {
        return switch (type) {
            case "bearer" -> Map.of("Authorization", "Bearer " + secret);
            case "header" -> Map.of(name, secret);
            case "basic" -> Map.of("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8)));
            default -> Map.of();
        };
    }

    /** Type and non-secret parts only. */
    ObjectNode redacted() {
        ObjectNode view = JsonNodeFactory.instance.objectNode().put("type", type);
        if (name != null) {
            view.put("name", name);
        }
        if (user != null) {
            view.put("username", user);
        }
        view.put("secretSet", secret != null);
        return view;
    }

    /** The full form, with the secret, as stored in the {@code agents.auth} column. */
    ObjectNode stored() {
        ObjectNode stored = JsonNodeFactory.instance.objectNode().put("type", type);
        switch (type) {
            case "bearer" -> stored.put("token", secret);
            case "header" -> stored.put("name", name).put("value", secret);
            case "basic" -> stored.put("username", user).put("password", secret);
            default -> { }
        }
        return stored;
    }

    /** The auth of a request or of a stored row; a missing one is {@link #NONE}. */
    static AgentAuth parse(JsonNode auth) {
        if (auth.isMissingNode() || auth.isNull() || auth.isObject() && auth.isEmpty()) {
            return NONE;
        }
        if (!auth.isObject()) {
            throw new BadRequestException("Expected auth to be an object with a type, but found " + auth, "/auth");
        }
        String type = auth.path("type").asString("");
        if (!TYPES.contains(type)) {
            throw new BadRequestException("Expected auth.type among " + TYPES + ", but found " + auth.path("type"),
                    "/auth/type");
        }
        return switch (type) {
            case "bearer" -> new AgentAuth(type, null, null, required(auth, "token"));
            case "header" -> new AgentAuth(type, headerName(auth), null, required(auth, "value"));
            case "basic" -> new AgentAuth(type, null, required(auth, "username"), required(auth, "password"));
            default -> NONE;
        };
    }

    private static String headerName(JsonNode auth) {
        String name = required(auth, "name");
        if (!name.matches(HEADER_NAME)) {
            throw new BadRequestException("Expected auth.name to be an HTTP header name, but found '" + name + "'",
                    "/auth/name");
        }
        return name;
    }

    private static String required(JsonNode auth, String member) {
        JsonNode value = auth.path(member);
        if (!value.isString() || value.stringValue().isBlank() || value.stringValue().contains("\n")) {
            throw new BadRequestException("Expected auth." + member + " to be a non-empty single-line string for "
                    + "auth type " + auth.path("type").asString() + ", but " + (value.isMissingNode() ? "it is missing"
                    : "found another value"), "/auth/" + member);
        }
        return value.stringValue();
    }
}
