package io.tokenflow.engine.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Hand-builds a run's events in the JSON form of {@code docs/run-events.md}, with seq counted from 1 and event times
 * 10 ms apart. {@link #then()} closes one atomic step, i.e. one events-stream entry.
 */
public final class EventScript {

    public static final long BASE_MILLIS = 1_763_780_000_000L;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final List<ArrayNode> entries = new ArrayList<>(List.of(JSON.arrayNode()));
    private final long baseMillis;
    private long seq;
    private int iteration;

    private EventScript(long baseMillis) {
        this.baseMillis = baseMillis;
    }

    public static EventScript events() {
        return new EventScript(BASE_MILLIS);
    }

    public static EventScript eventsFrom(long baseMillis) {
        return new EventScript(baseMillis);
    }

    public static long millisOf(long seq) {
        return BASE_MILLIS + seq * 10;
    }

    /** Later node events belong to this loop iteration. */
    public EventScript iteration(int value) {
        iteration = value;
        return this;
    }

    public EventScript runStarted(UUID workflowId, String inputsJson, String... entryNodes) {
        ObjectNode data = JSON.objectNode().put("workflow_id", workflowId.toString()).put("workflow_version", 1)
                .put("ir_revision", 0).put("tag", "live").put("submitted_by", "alice");
        data.putNull("idempotency_key");
        data.set("inputs", json(inputsJson));
        ArrayNode entry = data.putArray("entry_nodes");
        List.of(entryNodes).forEach(entry::add);
        return add("run.started", null, null, data);
    }

    public EventScript emitted(String from, String to, String token, String parent) {
        return add("token.emitted", to, token, tokenData(from, parent, false));
    }

    public EventScript parked(String from, String join, String token, String parent) {
        return add("token.emitted", join, token, tokenData(from, parent, true));
    }

    public EventScript arrived(String join, String token, String from, int arrived, int expected) {
        return add("join.arrived", join, token, JSON.objectNode().put("from", from).put("iteration", iteration)
                .put("arrived", arrived).put("expected", expected));
    }

    public EventScript joinCompleted(String join, String joinToken, String... arrivals) {
        ObjectNode data = JSON.objectNode().put("iteration", iteration);
        ArrayNode tokens = data.putArray("arrivals");
        List.of(arrivals).forEach(tokens::add);
        return add("join.completed", join, joinToken, data);
    }

    public EventScript started(String node, String token, String worker) {
        return add("node.started", node, token, JSON.objectNode().put("iteration", iteration).put("worker", worker));
    }

    public EventScript completed(String node, String token, String outputJson) {
        ObjectNode data = JSON.objectNode().put("iteration", iteration).put("worker", "w-1")
                .put("started_at", baseMillis + (seq + 1) * 10 - 5);
        data.set("output", json(outputJson));
        return add("node.completed", node, token, data);
    }

    /** A loop node's completion that went back to its loop's start for pass {@code pass} (its route as routed). */
    public EventScript completedAgain(String node, String token, int pass) {
        ObjectNode data = JSON.objectNode().put("iteration", iteration).put("worker", "w-1")
                .put("started_at", baseMillis + (seq + 1) * 10 - 5);
        data.set("output", JSON.objectNode());
        data.putObject("route").putObject("loop").put("pass", pass).put("max_iterations", 10).put("action", "again");
        return add("node.completed", node, token, data);
    }

    public EventScript failed(String node, String token, String message) {
        ObjectNode data = JSON.objectNode().put("iteration", iteration).put("worker", "w-1");
        data.set("error", JSON.objectNode().put("message", message).put("kind", "permanent").put("code", "E42"));
        return add("node.failed", node, token, data);
    }

    public EventScript runCompleted() {
        return add("run.completed", null, null, JSON.objectNode());
    }

    public EventScript runFailed(String node, String reason, int dropped) {
        return add("run.failed", node, null, JSON.objectNode().put("reason", reason).put("dropped", dropped));
    }

    public EventScript runCancelled(String by, int dropped) {
        return add("run.cancelled", null, null, JSON.objectNode().put("by", by).put("dropped", dropped));
    }

    public EventScript runResumed(String by, long resumes, String oldToken, String newToken) {
        ObjectNode data = JSON.objectNode().put("by", by).put("resumes", resumes);
        data.putObject("redone").put(oldToken, newToken);
        return add("run.resumed", null, null, data);
    }

    /** Any event, its data as the event's own {@code data(...)} writes it. */
    public EventScript event(String type, String node, String token, String dataJson) {
        return add(type, node, token, (ObjectNode) json(dataJson));
    }

    /** Closes the current atomic step: later events go to a new entry. */
    public EventScript then() {
        entries.add(JSON.arrayNode());
        return this;
    }

    /** Every event of every step, in seq order. */
    public ArrayNode json() {
        ArrayNode all = JSON.arrayNode();
        entries.forEach(all::addAll);
        return all;
    }

    public List<RunEvent> parsed() {
        return RunEvents.parse(json());
    }

    /** One JSON array per atomic step, as the events stream carries them. */
    /**
     * The entries, with each {@code node.completed} marked {@code terminal} as the coordinator marks it: when the
     * completion emitted no token (no {@code token.emitted} comes from that node).
     */
    public List<ArrayNode> entries() {
        java.util.Set<String> emitting = new java.util.HashSet<>();
        entries.forEach(entry -> entry.forEach(event -> {
            if ("token.emitted".equals(event.path("type").asString()) && event.path("data").path("from").isString()) {
                emitting.add(event.path("data").path("from").asString());
            }
        }));
        entries.forEach(entry -> entry.forEach(event -> {
            if ("node.completed".equals(event.path("type").asString())) {
                ((ObjectNode) event.get("data")).put("terminal", !emitting.contains(event.path("node").asString()));
            }
        }));
        return entries.stream().filter(entry -> !entry.isEmpty()).toList();
    }

    private ObjectNode tokenData(String from, String parent, boolean join) {
        return JSON.objectNode().put("from", from).put("parent", parent).put("iteration", iteration)
                .put("join", join);
    }

    private EventScript add(String type, String node, String token, ObjectNode data) {
        seq++;
        ObjectNode event = JSON.objectNode().put("seq", seq).put("type", type).put("at", baseMillis + seq * 10)
                .put("node", node).put("token", token);
        event.set("data", data);
        entries.get(entries.size() - 1).add(event);
        return this;
    }

    private static JsonNode json(String text) {
        return MAPPER.readTree(text);
    }
}
