package io.tokenflow.engine.compiler;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;

/**
 * The nodes the engine holds instead of a worker: {@code wait} (a timer) and {@code signal} (a wait for a message).
 * Each needs its settings, the settings belong to that type only, and what a worker's task has (a retry policy, a
 * time limit, an {@code on_failure} of a timer) does not apply to them, so it is refused.
 */
final class HeldNodeCompiler {

    static final String WAIT = "wait";
    static final String SIGNAL = "signal";
    private static final Pattern ONE_REFERENCE = Pattern.compile("^\\$\\{[^}]*}$");

    void check(NodeDefinition node, Diagnostics diagnostics) {
        checkMember(node, WAIT, node.timer() != null, "wait-settings", "{\"duration\": \"PT1H\"} or "
                + "{\"until\": \"${workflow.input.remind_at}\"}", diagnostics);
        checkMember(node, SIGNAL, node.signal() != null, "signal-settings", "{\"name\": \"payment\", \"key\": "
                + "\"${workflow.input.order_id}\"}", diagnostics);
        if (node.timer() != null && node.timer().until() != null) {
            checkUntil(node, node.timer().until(), diagnostics);
        }
        if (WAIT.equals(node.type()) || SIGNAL.equals(node.type())) {
            refuse(node, "retry", node.retry() != null, "the engine holds its token; nothing is tried again",
                    diagnostics);
            refuse(node, "timeout_s", node.timeoutS() != null, WAIT.equals(node.type())
                    ? "its wait settings say how long it holds the token" : "use signal.timeout", diagnostics);
            refuse(node, "on_failure", WAIT.equals(node.type()) && node.onFailure() != null,
                    "a timer does not fail (an until that is not an instant fails the run)", diagnostics);
        }
    }

    private static void checkMember(NodeDefinition node, String type, boolean present, String code, String example,
                                    Diagnostics diagnostics) {
        if (type.equals(node.type()) && !present) {
            diagnostics.error(code, node.id(), node.pointer(), "Expected " + type + " node '" + node.id() + "' to have "
                    + type + " settings, e.g. \"" + type + "\": " + example + ", but it has none");
        } else if (!type.equals(node.type()) && present) {
            diagnostics.error(code, node.id(), node.at(type), "Expected " + type + " settings only on " + type
                    + " nodes, but '" + node.id() + "' is a '" + node.type() + "' node");
        }
    }

    private static void checkUntil(NodeDefinition node, String until, Diagnostics diagnostics) {
        if (ONE_REFERENCE.matcher(until).matches()) {
            return;
        }
        try {
            OffsetDateTime.parse(until);
        } catch (DateTimeParseException e) {
            diagnostics.error("wait-settings", node.id(), node.timer().pointer() + "/until",
                    "Expected wait.until to be an ISO-8601 instant with its offset (2026-12-01T09:00:00Z) or one "
                    + "${…} reference giving one, but found '" + until + "'");
        }
    }

    private static void refuse(NodeDefinition node, String member, boolean present, String why,
                               Diagnostics diagnostics) {
        if (present) {
            diagnostics.error("unsupported-setting", node.id(), node.at(member), "Expected no " + member + " on "
                    + node.type() + " node '" + node.id() + "', but it has one: " + why);
        }
    }
}
