package io.tokenflow.runs;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import io.tokenflow.live.LiveEvent;
import tools.jackson.databind.JsonNode;

/** One line of text per run event, for the timeline. */
final class EventSummaries {

    private static final DateTimeFormatter WAIT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private EventSummaries() {
    }

    static String of(LiveEvent event) {
        JsonNode data = event.data();
        return switch (event.type()) {
            case "run.started" -> "started v" + data.path("workflow_version").asInt() + " by "
                    + data.path("submitted_by").asString("unknown");
            case "token.emitted" -> (event.dataText("from") == null ? "entry" : event.dataText("from")) + " \u2192 "
                    + event.node() + (data.path("join").asBoolean(false) ? " (waits at the join)" : "");
            case "join.arrived" -> "arrival " + data.path("arrived").asInt() + "/" + data.path("expected").asInt()
                    + (event.dataText("from") == null ? "" : " from " + event.dataText("from"));
            case "join.completed" -> "join complete (" + data.path("arrivals").size() + " arrivals)";
            case "node.started" -> "started" + worker(data);
            case "node.waiting" -> waiting(data);
            case "map.started" -> "map of " + String.format(java.util.Locale.ROOT, "%,d", data.path("items").asInt())
                    + " elements, " + data.path("concurrency").asInt() + " at a time";
            case "map.item.completed" -> "element " + data.path("index").asInt() + " completed" + worker(data);
            case "map.item.failed" -> "element " + data.path("index").asInt() + " failed: "
                    + errorMessage(data.get("error"));
            case "map.items.done" -> "every element done (" + data.path("completed").asInt() + " completed, "
                    + data.path("failed").asInt() + " failed)";
            case "node.completed" -> "completed" + iteration(data) + route(data.path("route"));
            case "node.failed" -> "failed: " + errorMessage(data.get("error")) + (data.has("next_nodes")
                    ? " \u2192 on to " + String.join(", ", texts(data.get("next_nodes"))) : "");
            case "node.retrying" -> "retrying: attempt " + data.path("attempt").asInt() + "/"
                    + data.path("max_attempts").asInt() + " failed (" + errorMessage(data.get("error")) + "), next in "
                    + data.path("delay_ms").asLong() + " ms";
            case "node.parked" -> "parked in the dead-letter queue after " + data.path("attempts").asInt()
                    + " attempt(s): " + errorMessage(data.get("error"));
            case "node.reprocessed" -> "reprocessed from the dead-letter queue by "
                    + data.path("by").asString("unknown") + (data.path("input_edited").asBoolean(false) ? " (input edited)" : "");
            case "node.discarded" -> "discarded from the dead-letter queue by " + data.path("by").asString("unknown");
            case "node.unparked" -> "a late completion took it out of the dead-letter queue";
            case "run.completed" -> "run completed";
            case "run.failed" -> "run failed: " + data.path("reason").asString("");
            case "run.cancelled" -> "run cancelled by " + data.path("by").asString("unknown");
            case "compensation.started" -> "compensation started by " + data.path("by").asString("unknown") + " ("
                    + data.path("reason").asString("") + "): undoing " + String.join(", ", texts(data.get("steps")));
            case "compensation.completed" -> "compensation completed";
            case "compensation.failed" -> "compensation failed: " + data.path("reason").asString("");
            case "run.resumed" -> "run resumed by " + data.path("by").asString("unknown") + " from event "
                    + data.path("resumes").asLong() + " (" + data.path("redone").size() + " to do again)";
            case "run.recovered" -> "run recovered from its event log by " + data.path("by").asString("unknown")
                    + " at event " + data.path("recovers").asLong() + ": " + data.path("reason").asString("") + " ("
                    + data.path("resent").size() + " sent again)";
            case "approval.requested" -> "approval requested from " + String.join(", ", texts(data.get("approvers")));
            case "approval.escalated" -> "approval escalated to " + String.join(", ", texts(data.get("approvers")))
                    + " (level " + data.path("level").asInt() + ")";
            case "approval.decided" -> decision(data);
            case "run.patched" -> patched(data);
            case "entry.quarantined" -> "lost: its stream entry " + data.path("entry_id").asString("") + " is in "
                    + "quarantine " + data.path("quarantine_id").asLong();
            default -> event.type();
        };
    }

    /** A patch: {@code revision 2 by alice: added audit; removed draft}. */
    static String patched(JsonNode data) {
        List<String> added = texts(data.get("added_nodes"));
        List<String> removed = texts(data.get("removed_nodes"));
        return "revision " + data.path("revision").asInt() + " by " + data.path("author").asString("unknown")
                + (added.isEmpty() ? "" : ": added " + String.join(", ", added))
                + (removed.isEmpty() ? "" : (added.isEmpty() ? ": " : "; ") + "removed " + String.join(", ", removed));
    }

    /** A loop step ({@code 3/5 again}) from a completion's {@code route.loop}, or {@code null}. */
    static String loop(JsonNode route) {
        JsonNode loop = route == null ? null : route.get("loop");
        if (loop == null || !loop.isObject()) {
            return null;
        }
        return loop.path("pass").asInt() + "/" + loop.path("max_iterations").asInt() + " "
                + loop.path("action").asString("");
    }

    /** A branch decision ({@code → C (rule 'big')}) from a completion's {@code route.branch}, or {@code null}. */
    static String branch(JsonNode route) {
        JsonNode branch = route == null ? null : route.get("branch");
        if (branch == null || !branch.isObject()) {
            return null;
        }
        String next = String.join(", ", texts(branch.get("next_nodes")));
        String why = branch.has("name") ? "rule '" + branch.get("name").asString() + "'"
                : branch.has("rule") ? "rule #" + (branch.get("rule").asInt() + 1)
                : branch.has("agent") ? (branch.at("/agent/accepted").asBoolean(false) ? "agent's choice"
                        : "default: " + branch.at("/agent/reason").asString("agent refused"))
                : "default";
        return "\u2192 " + (next.isEmpty() ? "nothing" : next) + " (" + why + ")";
    }

    static String errorMessage(JsonNode error) {
        if (error == null || error.isNull()) {
            return "unknown error";
        }
        if (error.isObject() && error.hasNonNull("message")) {
            return error.get("message").asString();
        }
        return error.isString() ? error.asString() : error.toString();
    }

    private static String route(JsonNode route) {
        String loop = loop(route);
        String branch = branch(route);
        return (loop == null ? "" : ", loop " + loop) + (branch == null ? "" : ", " + branch);
    }

    private static String decision(JsonNode data) {
        String decision = "reject".equals(data.path("decision").asString("")) ? "rejected" : "approved";
        return decision + (data.path("automatic").asBoolean(false) ? " automatically (timeout)"
                : " by " + data.path("decided_by").asString("unknown"))
                + (data.hasNonNull("comment") && !data.get("comment").asString().isBlank()
                ? ": \u201c" + data.get("comment").asString() + "\u201d" : "");
    }

    private static String worker(JsonNode data) {
        return data.hasNonNull("worker") ? " on " + data.get("worker").asString() : "";
    }

    private static String iteration(JsonNode data) {
        int iteration = data.path("iteration").asInt(0);
        return iteration > 0 ? " (iteration " + iteration + ")" : "";
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(item -> texts.add(item.isString() ? item.asString() : item.toString()));
        }
        return texts;
    }

    /**
     * What a held node waits for, from its {@code node.waiting} data: {@code waiting until 14:05:03 UTC},
     * {@code waiting for signal 'paid' (key o-1) until …}, or {@code waiting for child run 0193… (billing v3)}.
     */
    static String waiting(JsonNode data) {
        if ("child".equals(data.path("kind").asString(""))) {
            return "waiting for child run " + data.path("child_run_id").asString("") + " ("
                    + data.path("workflow").asString("") + ")";
        }
        String until = data.path("until").isNumber()
                ? " until " + WAIT_TIME.format(Instant.ofEpochMilli(data.path("until").asLong())) + " UTC" : "";
        if ("signal".equals(data.path("kind").asString(""))) {
            return "waiting for signal '" + data.path("signal").asString("") + "' (key " + data.path("key").asString("")
                    + ")" + until;
        }
        return "waiting" + until;
    }

    /** A map's progress: {@code 412/10,000 done, 3 failed} (failed elements count as done). */
    static String mapProgress(int done, int total, int failed) {
        return String.format(java.util.Locale.ROOT, "%,d/%,d done", done + failed, total)
                + (failed > 0 ? ", " + String.format(java.util.Locale.ROOT, "%,d", failed) + " failed" : "");
    }
}
