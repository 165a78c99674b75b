package io.tokenflow.engine.dsl;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.tokenflow.engine.ir.IrOnFailure;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a workflow DSL document into a {@link WorkflowDefinition}. The document is first validated against the
 * published schema; every violation becomes a diagnostic and nothing is read when any exists.
 */
public final class DslReader {

    private final WorkflowSchema schema;

    public DslReader(WorkflowSchema schema) {
        this.schema = schema;
    }

    public Optional<WorkflowDefinition> read(JsonNode document, Diagnostics diagnostics) {
        if (document == null || !document.isObject()) {
            diagnostics.error("schema", null, "", "Expected the workflow to be a JSON object, but found "
                    + (document == null ? "nothing" : document.getNodeType().name().toLowerCase()));
            return Optional.empty();
        }
        if (!schema.validate(document, diagnostics)) {
            return Optional.empty();
        }
        List<NodeDefinition> nodes = new ArrayList<>();
        List<CompensatorDefinition> compensators = new ArrayList<>();
        JsonNode nodeArray = document.path("nodes");
        for (int i = 0; i < nodeArray.size(); i++) {
            nodes.add(readNode("/nodes/" + i, nodeArray.get(i), diagnostics));
            JsonNode compensate = nodeArray.get(i).get("compensate");
            if (compensate != null) {
                compensators.add(new CompensatorDefinition("/nodes/" + i + "/compensate",
                        nodeArray.get(i).get("id").asString(), compensate.get("type").asString(),
                        compensate.has("config") ? (ObjectNode) compensate.get("config").deepCopy()
                                : JsonNodeFactory.instance.objectNode()));
            }
        }
        List<EdgeDefinition> edges = new ArrayList<>();
        JsonNode edgeArray = document.path("edges");
        for (int i = 0; i < edgeArray.size(); i++) {
            JsonNode edge = edgeArray.get(i);
            edges.add(new EdgeDefinition("/edges/" + i, edge.get("from").asString(), edge.get("to").asString(),
                    edge.get("condition")));
        }
        return Optional.of(new WorkflowDefinition(document.get("name").asString(), text(document, "description"),
                document.get("inputs"), document.get("retry"), document.get("deadline"), document.get("compensation"),
                compensators, nodes, edges));
    }

    private NodeDefinition readNode(String pointer, JsonNode node, Diagnostics diagnostics) {
        refuseSwitchedOff(pointer, node, "branch", diagnostics);
        refuseSwitchedOff(pointer, node, "loop", diagnostics);
        ObjectNode config = node.has("config") ? (ObjectNode) node.get("config").deepCopy()
                : JsonNodeFactory.instance.objectNode();
        return new NodeDefinition(pointer, node.get("id").asString(), node.get("type").asString(),
                text(node, "name"), config, node.get("input"),
                node.has("branch") ? readBranch(pointer + "/branch", node.get("branch")) : null,
                node.has("loop") ? readLoop(pointer + "/loop", node.get("loop")) : null,
                node.has("wait_for_all") ? node.get("wait_for_all").asBoolean() : null,
                node.get("retry"), node.get("limits"),
                node.has("human") ? readHuman(pointer + "/human", node.get("human"), node, diagnostics) : null,
                node.get("agent"), onFailure(pointer, node, diagnostics),
                node.has("timeout_s") ? node.get("timeout_s").asDouble() : null,
                node.has("wait") ? readWait(pointer + "/wait", node.get("wait"), node, diagnostics) : null,
                node.has("signal") ? readSignal(pointer + "/signal", node.get("signal"), node, diagnostics) : null,
                node.has("map") ? readMap(pointer + "/map", node.get("map")) : null,
                node.has("workflow") ? readCall(pointer + "/workflow", node.get("workflow")) : null);
    }

    /**
     * The node's {@code on_failure}. A signal node's only failure is its timeout, so its {@code timeout_path} is its
     * error path (the run goes on there), and an {@code on_failure} of its own is refused.
     */
    private static OnFailureDefinition onFailure(String pointer, JsonNode node, Diagnostics diagnostics) {
        if (node.has("signal") && node.has("on_failure")) {
            diagnostics.error("signal-settings", node.path("id").asString(), pointer + "/on_failure", "Expected no "
                    + "on_failure on signal node '" + node.path("id").asString() + "', but it has one: its only "
                    + "failure is the timeout, whose path is signal.timeout_path");
        }
        JsonNode timeoutPath = node.path("signal").get("timeout_path");
        if (timeoutPath != null && !timeoutPath.isEmpty()) {
            return new OnFailureDefinition(pointer + "/signal/timeout_path", IrOnFailure.PATH,
                    targets(timeoutPath, pointer + "/signal/timeout_path"));
        }
        return node.has("on_failure") && !node.has("signal")
                ? readOnFailure(pointer + "/on_failure", node.get("on_failure")) : null;
    }

    private static MapDefinition readMap(String pointer, JsonNode map) {
        return new MapDefinition(pointer, text(map, "items"),
                map.has("concurrency") ? map.get("concurrency").asInt() : null,
                map.has("max_items") ? map.get("max_items").asInt() : null);
    }

    private static CallDefinition readCall(String pointer, JsonNode call) {
        return new CallDefinition(pointer, text(call, "name"), text(call, "id"),
                call.has("version") ? call.get("version").asInt() : null, text(call, "tag"));
    }

    private static WaitDefinition readWait(String pointer, JsonNode wait, JsonNode node, Diagnostics diagnostics) {
        return new WaitDefinition(pointer, duration(pointer + "/duration", wait.get("duration"), node, diagnostics),
                text(wait, "until"));
    }

    private static SignalDefinition readSignal(String pointer, JsonNode signal, JsonNode node,
                                               Diagnostics diagnostics) {
        return new SignalDefinition(pointer, text(signal, "name"), text(signal, "key"),
                duration(pointer + "/timeout", signal.get("timeout"), node, diagnostics),
                targets(signal.get("timeout_path"), pointer + "/timeout_path"));
    }

    private static OnFailureDefinition readOnFailure(String pointer, JsonNode onFailure) {
        return new OnFailureDefinition(pointer, onFailure.path("action").asString(IrOnFailure.FAIL_RUN),
                targets(onFailure.get("next_nodes"), pointer + "/next_nodes"));
    }

    /** {@code enabled: false} would do nothing (a branch or loop cannot be switched off), so it is refused. */
    private static void refuseSwitchedOff(String pointer, JsonNode node, String member, Diagnostics diagnostics) {
        JsonNode enabled = node.path(member).path("enabled");
        if (enabled.isBoolean() && !enabled.asBoolean()) {
            diagnostics.error("unsupported-setting", node.path("id").asString(), pointer + "/" + member + "/enabled",
                    "Expected " + member + ".enabled to be true or left out, but it is false: a " + member
                            + " cannot be switched off; remove it instead");
        }
    }

    static BranchDefinition readBranch(String pointer, JsonNode branch) {
        List<BranchDefinition.Rule> rules = new ArrayList<>();
        JsonNode ruleArray = branch.path("rules");
        for (int i = 0; i < ruleArray.size(); i++) {
            JsonNode rule = ruleArray.get(i);
            String rulePointer = pointer + "/rules/" + i;
            rules.add(new BranchDefinition.Rule(rulePointer, text(rule, "name"), rule.get("condition"),
                    targets(rule.get("next_nodes"), rulePointer + "/next_nodes")));
        }
        String type = branch.has("type") ? branch.get("type").asString()
                : branch.has("available_next_nodes") ? BranchDefinition.AGENT_DRIVEN : BranchDefinition.CONDITIONAL;
        return new BranchDefinition(pointer, type, rules, targets(branch.get("default"), pointer + "/default"),
                targets(branch.get("available_next_nodes"), pointer + "/available_next_nodes"));
    }

    static LoopDefinition readLoop(String pointer, JsonNode loop) {
        Target loopBackTo = loop.has("loop_back_to")
                ? new Target(loop.get("loop_back_to").asString(), pointer + "/loop_back_to") : null;
        List<Target> breakPath = loop.has("break_path") ? targets(loop.get("break_path"), pointer + "/break_path") : null;
        return new LoopDefinition(pointer, loop.get("condition"), loop.get("max_iterations").asInt(), loopBackTo,
                breakPath, targets(loop.get("timeout_path"), pointer + "/timeout_path"));
    }

    private static HumanDefinition readHuman(String pointer, JsonNode human, JsonNode node, Diagnostics diagnostics) {
        return new HumanDefinition(pointer, text(human, "title"), text(human, "instructions"),
                strings(human.get("approvers")), timeout(pointer, human, node, diagnostics),
                text(human, "escalation_policy"), strings(human.get("escalate_to")),
                targets(human.get("rejection_path"), pointer + "/rejection_path"),
                formFields(pointer + "/form/fields", human.path("form").path("fields")));
    }

    private static List<FormField> formFields(String pointer, JsonNode fields) {
        List<FormField> form = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            JsonNode field = fields.get(i);
            form.add(new FormField(pointer + "/" + i, text(field, "name"), text(field, "label"),
                    text(field, "pointer"), text(field, "type")));
        }
        return form;
    }

    private static Duration timeout(String pointer, JsonNode human, JsonNode node, Diagnostics diagnostics) {
        if (human.has("timeout_hours")) {
            return Duration.ofMillis(Math.round(human.get("timeout_hours").asDouble() * 3_600_000d));
        }
        return duration(pointer + "/timeout", human.get("timeout"), node, diagnostics);
    }

    /** A duration member: ISO-8601 text ({@code PT48H}) or a number of seconds; {@code null} when absent. */
    private static Duration duration(String pointer, JsonNode timeout, JsonNode node, Diagnostics diagnostics) {
        if (timeout == null) {
            return null;
        }
        if (timeout.isNumber()) {
            return Duration.ofMillis(Math.round(timeout.asDouble() * 1000d));
        }
        try {
            return Duration.parse(timeout.asString());
        } catch (DateTimeParseException e) {
            diagnostics.error("schema", node.path("id").asString(), pointer,
                    "Expected an ISO-8601 duration such as PT48H, but found '" + timeout.asString() + "'");
            return null;
        }
    }

    static List<Target> targets(JsonNode array, String pointer) {
        List<Target> targets = new ArrayList<>();
        if (array != null) {
            for (int i = 0; i < array.size(); i++) {
                targets.add(new Target(array.get(i).asString(), pointer + "/" + i));
            }
        }
        return targets;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        if (array != null) {
            array.forEach(value -> values.add(value.asString()));
        }
        return values;
    }

    private static String text(JsonNode node, String member) {
        JsonNode value = node.get(member);
        return value == null || value.isNull() ? null : value.asString();
    }
}
