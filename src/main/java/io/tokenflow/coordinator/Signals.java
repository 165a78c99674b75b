package io.tokenflow.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.tokenflow.cas.CasStore;
import io.tokenflow.engine.ir.IrCompensator;
import io.tokenflow.engine.routing.AgentDecision;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Parses and validates completions-stream entries (docs/worker-protocol.md §3). */
final class Signals {

    /** The rule of {@link #isToken}, as the worker protocol writes it. */
    static final String TOKEN = "[A-Za-z0-9_-]{1,64}";
    /** The rule of {@link #isNode}, as the worker protocol writes it (a compensator's node ends in ~compensate). */
    static final String NODE = "[A-Za-z_][A-Za-z0-9_-]{0,63}(~compensate)?";
    private static final int MAX_ID_LENGTH = 64;
    private static final int MAX_EPOCH_MILLIS_DIGITS = 15;

    private final JsonMapper json;

    Signals(JsonMapper json) {
        this.json = json;
    }

    Signal parse(String entryId, Map<String, String> fields) {
        try {
            String kind = fields.get("kind");
            if (kind == null) {
                return completion(entryId, fields);
            }
            return switch (kind) {
                case "started", "heartbeat" -> new Signal.Started(entryId, token(fields), runId(fields),
                        node(fields), fields.getOrDefault("worker", ""), startedAt(fields.get("started_at")),
                        kind.equals("heartbeat"));
                case "join" -> joinReady(entryId, fields);
                default -> throw new InvalidSignal("Expected kind 'started' or 'heartbeat' (or none, for a "
                        + "completion), but found '" + kind + "'");
            };
        } catch (InvalidSignal | IllegalArgumentException e) {
            return new Signal.Malformed(entryId, fields, e.getMessage());
        }
    }

    private Signal.JoinReady joinReady(String entryId, Map<String, String> fields) {
        return new Signal.JoinReady(entryId, runId(fields), node(fields), token(fields),
                Integer.parseInt(required(fields, "iteration")));
    }

    private Signal.Completion completion(String entryId, Map<String, String> fields) {
        String status = required(fields, "status");
        boolean succeeded = switch (status) {
            case "completed" -> true;
            case "failed" -> false;
            default -> throw new InvalidSignal("Expected status 'completed' or 'failed', but found '" + status + "'");
        };
        String outputRef = fields.get("output_ref");
        String output = succeeded && outputRef == null ? validJson(required(fields, "output"), "output") : null;
        if (outputRef != null && !CasStore.isReference(outputRef)) {
            throw new InvalidSignal("Expected output_ref to be cas://sha256:<hex>, but found '" + outputRef + "'");
        }
        String error = succeeded ? null : errorObject(required(fields, "error"));
        AgentDecision decision = fields.containsKey("decision") ? decision(fields.get("decision")) : null;
        return new Signal.Completion(entryId, token(fields), runId(fields), node(fields), succeeded, output, outputRef,
                error, fields.getOrDefault("worker", ""), startedAt(fields.get("started_at")), decision,
                attempt(fields.get("attempt")));
    }

    private AgentDecision decision(String text) {
        JsonNode decision = parseJson(text, "decision");
        JsonNode next = decision.path("next_nodes");
        if (!decision.isObject() || !next.isArray()) {
            throw new InvalidSignal("Expected decision to be a JSON object with an array \"next_nodes\", but found "
                    + text);
        }
        List<String> nodes = new ArrayList<>(next.size());
        for (JsonNode id : next) {
            if (!id.isString() || !isNode(id.asString())) {
                throw new InvalidSignal("Expected decision.next_nodes to hold node ids, but found " + id);
            }
            nodes.add(id.asString());
        }
        JsonNode reasoning = decision.path("reasoning");
        return new AgentDecision(nodes, reasoning.isString() ? reasoning.asString() : null);
    }

    private String errorObject(String text) {
        JsonNode error = parseJson(text, "error");
        if (!error.isObject() || !error.path("message").isString()) {
            throw new InvalidSignal("Expected error to be a JSON object with a string \"message\", but found " + text);
        }
        return text;
    }

    private String validJson(String text, String field) {
        parseJson(text, field);
        return text;
    }

    private JsonNode parseJson(String text, String field) {
        try {
            return json.readTree(text);
        } catch (JacksonException e) {
            throw new InvalidSignal("Expected " + field + " to be JSON, but it is malformed: " + e.getOriginalMessage());
        }
    }

    private static UUID runId(Map<String, String> fields) {
        String run = required(fields, "run");
        try {
            return UUID.fromString(run);
        } catch (IllegalArgumentException e) {
            throw new InvalidSignal("Expected run to be a run id (UUID), but found '" + run + "'");
        }
    }

    private static String token(Map<String, String> fields) {
        String token = required(fields, "token");
        if (!isToken(token)) {
            throw new InvalidSignal("Expected token to match " + TOKEN + ", but found '" + token + "'");
        }
        return token;
    }

    private static String node(Map<String, String> fields) {
        String node = required(fields, "node");
        if (!isNode(node)) {
            throw new InvalidSignal("Expected node to match " + NODE + ", but found '" + node + "'");
        }
        return node;
    }

    /** The attempt a failure reports (optional; 1 to 100), so a repeated signal of a retried attempt is told apart. */
    private static Integer attempt(String value) {
        if (value == null) {
            return null;
        }
        if (value.isEmpty() || value.length() > 3 || !value.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(value) < 1) {
            throw new InvalidSignal("Expected attempt to be the task's attempt (1, 2, ...), but found '" + value + "'");
        }
        return Integer.parseInt(value);
    }

    private static Long startedAt(String value) {
        return value == null || !isEpochMillis(value) ? null : Long.parseLong(value);
    }

    // The id rules are checked a character at a time, not with regular expressions: they run on every completion, and
    // a matcher per field cost a sixth of routing a local completion (profile of the fan-out/fan-in benchmark).

    /** Whether the text is a token id: {@value #TOKEN}. */
    static boolean isToken(String text) {
        return text.length() >= 1 && text.length() <= MAX_ID_LENGTH && idCharacters(text, 0);
    }

    /** Whether the text is a node id, or a compensator's ({@code <node>~compensate}): {@value #NODE}. */
    static boolean isNode(String text) {
        String compensated = IrCompensator.compensated(text);
        return compensated != null ? isAuthoredNode(compensated) : isAuthoredNode(text);
    }

    private static boolean isAuthoredNode(String text) {
        if (text.isEmpty() || text.length() > MAX_ID_LENGTH) {
            return false;
        }
        char first = text.charAt(0);
        return (isAsciiLetter(first) || first == '_') && idCharacters(text, 1);
    }

    /** Whether the text is 1 to 15 ASCII digits. */
    static boolean isEpochMillis(String text) {
        if (text.isEmpty() || text.length() > MAX_EPOCH_MILLIS_DIGITS) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!isAsciiDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean idCharacters(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(isAsciiLetter(c) || isAsciiDigit(c) || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String required(Map<String, String> fields, String name) {
        String value = fields.get(name);
        if (value == null || value.isEmpty()) {
            throw new InvalidSignal("Expected field '" + name + "', but it is missing");
        }
        return value;
    }

    /** Why an entry is not a valid signal. */
    static final class InvalidSignal extends RuntimeException {
        InvalidSignal(String message) {
            super(message, null, false, false);
        }
    }
}
