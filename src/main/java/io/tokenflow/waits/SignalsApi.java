package io.tokenflow.waits;

import java.security.Principal;
import java.util.regex.Pattern;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * {@code POST /api/v1/signals/{name}} with {@code {"key": "…", "payload": …, "message_id": "…"}}: resumes every run
 * waiting at a signal node for {@code name} with that correlation key (scope {@code signals:send}).
 */
@RestController
class SignalsApi {

    private static final Pattern NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$");
    private static final int MAX_KEY = 1000;
    private static final String SIGNAL_EXAMPLE = """
            {"key": "o-1", "payload": {"paid": true, "amount": 42.5}, "message_id": "bank-77"}
            """;
    private static final int MAX_MESSAGE_ID = 200;

    private final SignalDelivery delivery;

    SignalsApi(SignalDelivery delivery) {
        this.delivery = delivery;
    }

    @PostMapping(path = "/api/v1/signals/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @io.swagger.v3.oas.annotations.parameters.RequestBody(description = "The correlation key, the payload the "
            + "waiting runs get, and an optional message id (a repeated one is answered as the first time)",
            content = @Content(schema = @Schema(type = "object"), examples = @ExampleObject(name = "payment received",
                    value = SIGNAL_EXAMPLE)))
    ResponseEntity<SignalDelivery.Delivered> send(@PathVariable String name, @RequestBody String body,
                                                  Principal principal) {
        if (!NAME.matcher(name).matches()) {
            throw new BadRequestException("Expected a signal name of letters, digits, '.', '_' or '-' (at most 100, "
                    + "starting with a letter or digit), but found '" + name + "'", "path:name");
        }
        JsonNode request = RequestJson.object(body, java.util.Set.of("key", "payload", "message_id"));
        String key = text(request, "key", MAX_KEY, true);
        String messageId = text(request, "message_id", MAX_MESSAGE_ID, false);
        JsonNode payload = request.has("payload") ? request.get("payload") : NullNode.getInstance();
        SignalDelivery.Delivered delivered = delivery.deliver(name, key, payload, messageId,
                principal == null ? "anonymous" : principal.getName());
        if (delivered.duplicate()) {
            return ResponseEntity.ok().header("Idempotent-Replayed", "true").body(delivered);
        }
        if (delivered.delivered().isEmpty()) {
            throw new NotFoundException("Expected a run waiting for signal '" + name + "' with key '" + key + "', but "
                    + "none waits (signals are not kept for runs that reach the signal node later)");
        }
        return ResponseEntity.ok(delivered);
    }

    /** A text member; numbers and booleans are taken as their text, as a node's resolved key is. */
    private static String text(JsonNode request, String member, int max, boolean required) {
        JsonNode value = request.get(member);
        if (value == null || value.isNull()) {
            if (required) {
                throw new BadRequestException("Expected \"" + member + "\", the correlation key, but it is missing",
                        "/" + member);
            }
            return null;
        }
        if (!(value.isString() || value.isNumber() || value.isBoolean()) || value.asString().isEmpty()
                || value.asString().length() > max) {
            throw new BadRequestException("Expected \"" + member + "\" to be a text of 1 to " + max + " characters, "
                    + "but found " + kind(value), "/" + member);
        }
        return value.asString();
    }

    private static String kind(JsonNode value) {
        String text = value.toString();
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }
}
