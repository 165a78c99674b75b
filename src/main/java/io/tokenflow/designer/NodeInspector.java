package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.tokenflow.designer.InspectorField.Widget;
import io.tokenflow.engine.ir.IrCall;
import io.tokenflow.engine.types.NodeTypeSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The inspector of one node of the draft: every setting the DSL has for it, as fields bound to JSON pointers.
 *
 * @param path       the node's pointer, {@code /nodes/3}
 * @param type       the node type, or {@code null} when the type is unknown (its config is then plain JSON)
 * @param call       a workflow node's Sub-workflow section, else {@code null}
 * @param successors the nodes its edges lead to, offered as branch and loop targets
 */
public record NodeInspector(String path, String id, String typeName, NodeTypeSpec type, List<InspectorField> general,
                            List<InspectorField> config, InspectorField input, InspectorField join,
                            List<InspectorField> retry, List<InspectorField> onFailure, BranchView branch,
                            LoopView loop,
                            List<InspectorField> human, List<InspectorField> agent, List<InspectorField> timer,
                            List<InspectorField> signal, List<InspectorField> map, CallView call,
                            List<String> successors) {

    public NodeInspector {
        general = List.copyOf(general);
        config = List.copyOf(config);
        retry = List.copyOf(retry);
        onFailure = List.copyOf(onFailure);
        human = List.copyOf(human);
        agent = List.copyOf(agent);
        timer = List.copyOf(timer);
        signal = List.copyOf(signal);
        map = List.copyOf(map);
        successors = List.copyOf(successors);
    }

    /** @param callable the workflows a workflow node may call, by name */
    static NodeInspector of(JsonNode document, int index, NodeTypeSpec type, List<String> callable) {
        JsonNode node = document.path("nodes").get(index);
        String path = "/nodes/" + index;
        String id = node.path("id").asString("");
        JsonNode config = node.path("config").isObject() ? node.path("config") : JsonNodeFactory.instance.objectNode();
        List<InspectorField> configFields = type == null
                ? List.of(InspectorField.of(node, path + "/config", "Config", Widget.JSON, "The node type is unknown"))
                : ConfigFields.of(type.configSchema(), config, path + "/config");
        String kind = type == null ? "task" : type.kind().label();
        String typeName = node.path("type").asString("");
        boolean calls = IrCall.NODE_TYPE.equals(typeName);
        boolean held = "wait".equals(typeName) || "signal".equals(typeName) || calls;
        return new NodeInspector(path, id, node.path("type").asString(""), type, general(node, path), configFields,
                InspectorField.of(node, path + "/input", "Input mapping", Widget.JSON,
                        "JSON; strings may use ${workflow.input.x} and ${nodes.<id>.output.y}"),
                InspectorField.of(node, path + "/wait_for_all", "Wait for all incoming paths (join)", Widget.CHECKBOX,
                        "Runs once, when every dependency has sent its token"),
                "human".equals(kind) || held ? List.of() : retry(node, path),
                "human".equals(kind) || held && !calls ? List.of()
                        : onFailure(node.path("on_failure"), path + "/on_failure", calls),
                BranchView.of(node.path("branch"), path + "/branch", "agent".equals(kind)),
                LoopView.of(node.path("loop"), path + "/loop"),
                "human".equals(kind) ? human(node.path("human"), path + "/human") : List.of(),
                "agent".equals(kind) ? agent(node.path("agent"), path + "/agent") : List.of(),
                "wait".equals(typeName) ? timer(node.path("wait"), path + "/wait") : List.of(),
                "signal".equals(typeName) ? signal(node.path("signal"), path + "/signal") : List.of(),
                "task".equals(kind) && !held ? map(node.path("map"), path + "/map") : List.of(),
                calls ? CallView.of(node.path("workflow"), path + "/workflow", callable) : null,
                successors(document, id));
    }

    private static List<InspectorField> general(JsonNode node, String path) {
        return List.of(InspectorField.of(node, path + "/id", "Id", Widget.TEXT,
                        "Letters, digits, _ and -; renaming updates edges and routes").markedRequired(),
                InspectorField.of(node, path + "/name", "Display name", Widget.TEXT, null),
                InspectorField.of(node, path + "/description", "Description", Widget.TEXTAREA, null));
    }

    /** The node's retry policy and the time limit of one attempt ({@code timeout_s}, which a timeout retries). */
    private static List<InspectorField> retry(JsonNode node, String nodePath) {
        JsonNode retry = node.path("retry");
        String path = nodePath + "/retry";
        return List.of(InspectorField.of(node, nodePath + "/timeout_s", "Timeout of an attempt (s)", Widget.NUMBER,
                        "Past it the attempt fails as transient (code timeout)"),
                InspectorField.of(retry, path + "/max_attempts", "Max attempts", Widget.INTEGER, null),
                InspectorField.of(retry, path + "/backoff_ms", "Backoff (ms)", Widget.INTEGER, null),
                InspectorField.of(retry, path + "/max_backoff_ms", "Max backoff (ms)", Widget.INTEGER, null),
                InspectorField.of(retry, path + "/multiplier", "Multiplier", Widget.NUMBER, null),
                InspectorField.of(retry, path + "/jitter", "Jitter (0-1)", Widget.NUMBER, null),
                InspectorField.of(retry, path + "/retry_on", "Retry only these error codes", Widget.LIST,
                        "Comma-separated; empty: every transient failure"));
    }

    /** What happens to a failure: a workflow node's child run cannot be parked in the dead-letter queue. */
    private static List<InspectorField> onFailure(JsonNode onFailure, String path, boolean calls) {
        return List.of(calls ? InspectorField.select(onFailure, path + "/action", "When the child run fails",
                        List.of("fail_run", "path"), false, "fail_run: the run fails; path: the error goes on to the "
                                + "nodes below")
                        : InspectorField.select(onFailure, path + "/action", "When no retry is left",
                        List.of("fail_run", "path", "dlq"), false, "fail_run: the run fails; path: the error goes on to "
                                + "the nodes below; dlq: the task parks in the dead-letter queue"),
                InspectorField.of(onFailure, path + "/next_nodes", "Error path (node ids)", Widget.LIST,
                        "Comma-separated; with path only"));
    }


    private static List<InspectorField> human(JsonNode human, String path) {
        return List.of(InspectorField.of(human, path + "/title", "Title", Widget.TEXT, null),
                InspectorField.of(human, path + "/instructions", "Instructions", Widget.TEXTAREA, null),
                InspectorField.of(human, path + "/approvers", "Approvers", Widget.LIST,
                        "User names or role:<name>, comma-separated").markedRequired(),
                InspectorField.of(human, path + "/timeout", "Timeout", Widget.TEXT, "ISO-8601, e.g. PT48H"),
                InspectorField.select(human, path + "/escalation_policy", "On timeout",
                        List.of("auto_approve", "auto_reject", "escalate", "auto_approve_after_timeout"), false, null),
                InspectorField.of(human, path + "/escalate_to", "Escalate to", Widget.LIST, "Comma-separated"),
                InspectorField.of(human, path + "/rejection_path", "Rejection path", Widget.LIST,
                        "Node ids taken when rejected"));
    }

    private static List<InspectorField> agent(JsonNode agent, String path) {
        return List.of(InspectorField.of(agent, path + "/model", "Model", Widget.TEXT, null),
                InspectorField.of(agent, path + "/system_prompt", "System prompt", Widget.TEXTAREA, null),
                InspectorField.of(agent, path + "/prompt", "Prompt", Widget.TEXTAREA, null),
                InspectorField.of(agent, path + "/temperature", "Temperature", Widget.NUMBER, "0 to 2"),
                InspectorField.of(agent, path + "/max_tokens", "Max tokens", Widget.INTEGER, null),
                InspectorField.of(agent, path + "/tools", "Tools", Widget.LIST, "Comma-separated tool names"),
                InspectorField.of(agent, path + "/timeout_s", "Timeout (s)", Widget.NUMBER, null));
    }

    /** A wait node's timer: one of a duration and an instant. */
    private static List<InspectorField> timer(JsonNode timer, String path) {
        return List.of(InspectorField.of(timer, path + "/duration", "Wait for", Widget.TEXT,
                        "ISO-8601 duration, e.g. PT15M, or seconds"),
                InspectorField.of(timer, path + "/until", "Or wait until", Widget.TEXT,
                        "ISO-8601 instant (2026-12-01T09:00:00Z) or ${workflow.input.remind_at}"));
    }

    /** A signal node's wait: which signal, correlated by which key, for how long, and where a timeout goes. */
    private static List<InspectorField> signal(JsonNode signal, String path) {
        return List.of(InspectorField.of(signal, path + "/name", "Signal name", Widget.TEXT,
                        "Sent as POST /api/v1/signals/{name}").markedRequired(),
                InspectorField.of(signal, path + "/key", "Correlation key", Widget.TEXT,
                        "Text or ${workflow.input.order_id}; a signal must carry the same key").markedRequired(),
                InspectorField.of(signal, path + "/timeout", "Timeout", Widget.TEXT, "ISO-8601, e.g. PT24H"),
                InspectorField.of(signal, path + "/timeout_path", "Timeout path", Widget.LIST,
                        "Node ids taken when no signal came in time; none: the node fails"));
    }

    /** A map over a list: the node runs once per element. */
    private static List<InspectorField> map(JsonNode map, String path) {
        return List.of(InspectorField.of(map, path + "/items", "Run once per element of", Widget.TEXT,
                        "One reference giving a list, e.g. ${nodes.fetch.output.customers}"),
                InspectorField.of(map, path + "/concurrency", "At most at a time", Widget.INTEGER, "Default 10"),
                InspectorField.of(map, path + "/max_items", "Max elements", Widget.INTEGER, "Default 10,000"));
    }

    public boolean hasMap() {
        return map.stream().anyMatch(field -> !field.value().isEmpty());
    }

    private static List<String> successors(JsonNode document, String id) {
        Set<String> targets = new LinkedHashSet<>();
        document.path("edges").forEach(edge -> {
            if (id.equals(edge.path("from").asString(null))) {
                targets.add(edge.path("to").asString(""));
            }
        });
        return new ArrayList<>(targets);
    }

    public boolean hasRetry() {
        return retry.stream().anyMatch(field -> !field.value().isEmpty());
    }

    public boolean hasOnFailure() {
        return onFailure.stream().anyMatch(field -> !field.value().isEmpty());
    }


    /**
     * A node's branch: its rules (first match wins) and default, or for agents the nodes the agent may choose.
     *
     * @param present whether the node has a branch at all
     */
    public record BranchView(String path, boolean present, boolean agentDriven, boolean agentNode, List<RuleView> rules,
                             InspectorField defaultPath, InspectorField available) {

        public BranchView {
            rules = List.copyOf(rules);
        }

        static BranchView of(JsonNode branch, String path, boolean agentNode) {
            List<RuleView> rules = new ArrayList<>();
            JsonNode authored = branch.path("rules");
            for (int i = 0; i < authored.size(); i++) {
                rules.add(RuleView.of(authored.get(i), path + "/rules/" + i, i));
            }
            return new BranchView(path, branch.isObject(), "agent_driven".equals(branch.path("type").asString("")),
                    agentNode, rules, InspectorField.of(branch, path + "/default", "Default", Widget.LIST,
                            "Node ids taken when no rule matches"),
                    InspectorField.of(branch, path + "/available_next_nodes", "Allowed next nodes", Widget.LIST,
                            "The agent may choose among these node ids"));
        }
    }

    /** One branch rule: a condition and the nodes it routes to. */
    public record RuleView(String path, int index, InspectorField name, ConditionView condition,
                           InspectorField nextNodes) {

        static RuleView of(JsonNode rule, String path, int index) {
            JsonNode condition = rule.has("condition") ? rule.get("condition") : JsonNodeFactory.instance.objectNode();
            return new RuleView(path, index, InspectorField.of(rule, path + "/name", "Rule name", Widget.TEXT, null),
                    ConditionView.of(condition, path + "/condition"),
                    InspectorField.of(rule, path + "/next_nodes", "Then go to", Widget.LIST,
                            "Node ids, comma-separated").markedRequired());
        }
    }

    /** A node's loop: how often, while what, back to where, and where it leaves to. */
    public record LoopView(String path, boolean present, List<InspectorField> fields, ConditionView condition) {

        public LoopView {
            fields = List.copyOf(fields);
        }

        static LoopView of(JsonNode loop, String path) {
            List<InspectorField> fields = List.of(
                    InspectorField.of(loop, path + "/max_iterations", "Max iterations", Widget.INTEGER, null)
                            .markedRequired(),
                    InspectorField.of(loop, path + "/loop_back_to", "Loop back to", Widget.TEXT,
                            "This node (default) or a node before it"),
                    InspectorField.of(loop, path + "/break_path", "Break path", Widget.LIST,
                            "Taken when the condition stops holding; default: the node's edges"),
                    InspectorField.of(loop, path + "/timeout_path", "Timeout path", Widget.LIST,
                            "Taken when max iterations is reached"));
            ConditionView condition = loop.has("condition") ? ConditionView.of(loop.get("condition"), path + "/condition")
                    : null;
            return new LoopView(path, loop.isObject(), fields, condition);
        }
    }
}
