package io.tokenflow.engine.compiler;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

import io.tokenflow.engine.dsl.CallDefinition;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.ir.IrCall;
import io.tokenflow.engine.ir.IrOnFailure;

/**
 * The nodes the engine holds instead of a worker: {@code wait} (a timer), {@code signal} (a wait for a message) and
 * {@code workflow} (a call of another workflow). Each needs its settings, the settings belong to that type only, and
 * what a worker's task has (a retry policy, a time limit, an {@code on_failure} of a timer, the dead-letter queue of a
 * call) does not apply to them, so it is refused. Whether a called workflow exists and calls back is a question about
 * other workflows, which the designer asks when a version is stored ({@code designer.WorkflowCalls}).
 */
final class HeldNodeCompiler {

    static final String WAIT = "wait";
    static final String SIGNAL = "signal";
    static final String CALL = IrCall.NODE_TYPE;
    private static final Pattern ONE_REFERENCE = Pattern.compile("^\\$\\{[^}]*}$");

    void check(NodeDefinition node, Diagnostics diagnostics) {
        checkMember(node, WAIT, node.timer() != null, "wait-settings", "{\"duration\": \"PT1H\"} or "
                + "{\"until\": \"${workflow.input.remind_at}\"}", diagnostics);
        checkMember(node, SIGNAL, node.signal() != null, "signal-settings", "{\"name\": \"payment\", \"key\": "
                + "\"${workflow.input.order_id}\"}", diagnostics);
        checkMember(node, CALL, node.call() != null, "workflow-settings", "{\"name\": \"billing\", \"version\": 3}",
                diagnostics);
        if (node.timer() != null && node.timer().until() != null) {
            checkUntil(node, node.timer().until(), diagnostics);
        }
        if (node.call() != null) {
            checkCall(node, node.call(), diagnostics);
        }
        if (CALL.equals(node.type())) {
            refuse(node, "retry", node.retry() != null, "a failed child run is not started again; route its failure "
                    + "with on_failure", diagnostics);
            refuse(node, "timeout_s", node.timeoutS() != null, "the called workflow's deadline bounds the child run",
                    diagnostics);
            if (node.onFailure() != null && IrOnFailure.DLQ.equals(node.onFailure().action())) {
                diagnostics.error("unsupported-setting", node.id(), node.onFailure().pointer() + "/action",
                        "Expected on_failure.action fail_run or path on workflow node '" + node.id() + "', but found "
                        + "dlq: a child run is not a task that can be parked and sent again");
            }
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

    private static void checkCall(NodeDefinition node, CallDefinition call, Diagnostics diagnostics) {
        if ((call.name() == null) == (call.id() == null)) {
            diagnostics.error("workflow-settings", node.id(), call.pointer(), "Expected the called workflow by "
                    + "\"name\" or by \"id\" (one of them), but found " + (call.name() == null ? "neither" : "both"));
        }
        if ((call.version() == null) == (call.tag() == null)) {
            diagnostics.error("workflow-settings", node.id(), call.pointer(), "Expected the called workflow pinned by "
                    + "\"version\" or by \"tag\" (one of them), but found "
                    + (call.version() == null ? "neither" : "both"));
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
