package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.Severity;
import tools.jackson.databind.JsonNode;

/**
 * No setting silently ignored: every member the DSL's JSON Schema accepts either takes effect (named here with what
 * uses it, so a new member cannot slip in unnoticed) or is refused by the compiler with a diagnostic at its pointer
 * (checked here by compiling a workflow that sets it).
 */
class SchemaMembersTests {

    /** Member path ({@code *} for array items) → what makes it take effect. */
    private static final Map<String, String> TAKE_EFFECT = new TreeMap<>(Map.ofEntries(
            Map.entry("/triggers", "ActiveTriggers: the newest version's triggers"),
            Map.entry("/triggers/*/id", "trigger_fires, webhook URL"),
            Map.entry("/triggers/*/type", "CronScheduler or ReceiveWebhook"),
            Map.entry("/triggers/*/cron", "CronSchedule (refused on a webhook)"),
            Map.entry("/triggers/*/time_zone", "CronSchedule (refused on a webhook)"),
            Map.entry("/triggers/*/missed", "CronSchedule (refused on a webhook)"),
            Map.entry("/triggers/*/inputs", "CronScheduler: each run's inputs (refused on a webhook)"),
            Map.entry("/triggers/*/auth", "WebhookAuthentication (refused on a cron trigger)"),
            Map.entry("/$schema", "editors' schema hint; validation"), Map.entry("/name", "the workflow's name"),
            Map.entry("/description", "workflow pages"), Map.entry("/version", "informational, shown with the DSL"),
            Map.entry("/metadata", "kept with the version, returned by the API"),
            Map.entry("/inputs", "RunInputs checks a run's inputs"), Map.entry("/inputs/properties", "RunInputs"),
            Map.entry("/inputs/required", "RunInputs"), Map.entry("/inputs/type", "RunInputs"),
            Map.entry("/retry", "RetryCompiler: every worker node's default"),
            Map.entry("/retry/max_attempts", "IrRetry"), Map.entry("/retry/backoff_ms", "IrRetry"),
            Map.entry("/retry/multiplier", "IrRetry"), Map.entry("/retry/max_backoff_ms", "IrRetry"),
            Map.entry("/retry/jitter", "IrRetry"), Map.entry("/retry/retry_on", "IrRetry"),
            Map.entry("/nodes/*/retry/max_attempts", "IrRetry"), Map.entry("/nodes/*/retry/backoff_ms", "IrRetry"),
            Map.entry("/nodes/*/retry/multiplier", "IrRetry"), Map.entry("/nodes/*/retry/max_backoff_ms", "IrRetry"),
            Map.entry("/nodes/*/retry/jitter", "IrRetry"), Map.entry("/nodes/*/retry/retry_on", "IrRetry"),
            Map.entry("/edges", "routing"), Map.entry("/edges/*/from", "routing"), Map.entry("/edges/*/to", "routing"),
            Map.entry("/edges/*/condition", "branch rules"), Map.entry("/edges/*/condition/type", "condition engine"),
            Map.entry("/edges/*/id", "designer edge identity"), Map.entry("/edges/*/label", "designer and run graph"),
            Map.entry("/nodes", "the graph"), Map.entry("/nodes/*/id", "the graph"), Map.entry("/nodes/*/type", "worker"),
            Map.entry("/nodes/*/name", "labels"), Map.entry("/nodes/*/description", "designer"),
            Map.entry("/nodes/*/config", "workers"), Map.entry("/nodes/*/input", "InputResolver"),
            Map.entry("/nodes/*/wait_for_all", "joins"), Map.entry("/nodes/*/ui", "designer"),
            Map.entry("/nodes/*/ui/x", "designer"), Map.entry("/nodes/*/ui/y", "designer"),
            Map.entry("/nodes/*/ui/color", "designer and run graph"),
            Map.entry("/nodes/*/branch", "Router"), Map.entry("/nodes/*/branch/type", "Router"),
            Map.entry("/nodes/*/branch/rules", "Router"), Map.entry("/nodes/*/branch/rules/*/condition", "Router"),
            Map.entry("/nodes/*/branch/rules/*/name", "route events"),
            Map.entry("/nodes/*/branch/rules/*/condition/type", "condition engine"),
            Map.entry("/nodes/*/branch/rules/*/next_nodes", "Router"), Map.entry("/nodes/*/branch/default", "Router"),
            Map.entry("/nodes/*/branch/available_next_nodes", "agent-driven branches"),
            Map.entry("/nodes/*/loop", "Router"), Map.entry("/nodes/*/loop/condition", "Router"),
            Map.entry("/nodes/*/loop/condition/type", "condition engine"),
            Map.entry("/nodes/*/loop/max_iterations", "Router"), Map.entry("/nodes/*/loop/loop_back_to", "Router"),
            Map.entry("/nodes/*/loop/break_path", "Router"), Map.entry("/nodes/*/loop/timeout_path", "Router"),
            Map.entry("/nodes/*/retry", "NodeRetries"), Map.entry("/nodes/*/timeout_s", "Timeouts"),
            Map.entry("/nodes/*/limits", "LimitsCompiler"),
            Map.entry("/nodes/*/limits/max_hops", "TokenEmitter, the prelude's past_hop_limit"),
            Map.entry("/nodes/*/limits/max_fan_out", "CompletionRouter, LimitsCompiler"),
            Map.entry("/deadline", "Timeouts"), Map.entry("/deadline/seconds", "Timeouts"),
            Map.entry("/deadline/action", "Timeouts"), Map.entry("/nodes/*/on_failure", "CompletionRouter"),
            Map.entry("/compensation", "Compensations.startDeclared"),
            Map.entry("/compensation/on", "Compensations.startDeclared"),
            Map.entry("/nodes/*/compensate", "Compensations"), Map.entry("/nodes/*/compensate/type", "Compensations"),
            Map.entry("/nodes/*/compensate/config", "the compensator's task"),
            Map.entry("/nodes/*/on_failure/action", "CompletionRouter, DeadLetters"),
            Map.entry("/nodes/*/on_failure/next_nodes", "CompletionRouter"),
            Map.entry("/nodes/*/human", "approvals"), Map.entry("/nodes/*/human/approvers", "Approvers"),
            Map.entry("/nodes/*/human/escalate_to", "ApprovalTimeouts"),
            Map.entry("/nodes/*/human/escalation_policy", "ApprovalTimeouts"),
            Map.entry("/nodes/*/human/instructions", "approval.requested"),
            Map.entry("/nodes/*/human/rejection_path", "DecideApproval"),
            Map.entry("/nodes/*/human/timeout", "ApprovalTimeouts"),
            Map.entry("/nodes/*/human/timeout_hours", "ApprovalTimeouts"), Map.entry("/nodes/*/human/title", "inbox"),
            Map.entry("/nodes/*/human/form", "inbox detail (ApprovalForms)"),
            Map.entry("/nodes/*/human/form/fields", "ApprovalForms"),
            Map.entry("/nodes/*/human/form/fields/*/name", "ApprovalForms"),
            Map.entry("/nodes/*/human/form/fields/*/label", "ApprovalForms"),
            Map.entry("/nodes/*/human/form/fields/*/pointer", "ApprovalForms"),
            Map.entry("/nodes/*/human/form/fields/*/type", "ApprovalForms"),
            Map.entry("/nodes/*/agent", "LlmAgent"), Map.entry("/nodes/*/agent/max_tokens", "LlmAgent"),
            Map.entry("/nodes/*/agent/model", "LlmAgent"), Map.entry("/nodes/*/agent/prompt", "Prompts"),
            Map.entry("/nodes/*/agent/system_prompt", "Prompts"), Map.entry("/nodes/*/agent/temperature", "LlmAgent"),
            Map.entry("/nodes/*/agent/timeout_s", "LlmAgent, ExternalAgentJobs"),
            Map.entry("/nodes/*/agent/tools", "Toolbox"),
            Map.entry("/nodes/*/wait", "HeldTasks"), Map.entry("/nodes/*/wait/duration", "HeldTasks.holdTimer"),
            Map.entry("/nodes/*/wait/until", "HeldTasks.holdTimer"), Map.entry("/nodes/*/signal", "HeldTasks"),
            Map.entry("/nodes/*/signal/name", "SignalDelivery"), Map.entry("/nodes/*/signal/key", "SignalDelivery"),
            Map.entry("/nodes/*/signal/timeout", "WaitDueTimes"),
            Map.entry("/nodes/*/workflow", "ChildRuns: the child run"), Map.entry("/nodes/*/workflow/name", "ChildRuns"),
            Map.entry("/nodes/*/workflow/id", "ChildRuns"), Map.entry("/nodes/*/workflow/version", "ChildRuns"),
            Map.entry("/nodes/*/workflow/tag", "ChildRuns: resolved when the child starts"),
            Map.entry("/nodes/*/signal/timeout_path", "the node's error path (CompletionRouter)"),
            Map.entry("/nodes/*/map", "MapItems"), Map.entry("/nodes/*/map/items", "MapItems.start"),
            Map.entry("/nodes/*/map/concurrency", "MapItems"), Map.entry("/nodes/*/map/max_items", "MapItems.start")));

    /** Member path → a node (as JSON) setting it, which the compiler must refuse at that member's pointer. */
    private static final Map<String, String> REFUSED = new TreeMap<>(Map.of(
            "/nodes/*/limits/deadline_s", "{\"limits\": {\"deadline_s\": 2}}",
            "/nodes/*/branch/enabled", "{\"branch\": {\"enabled\": false, \"rules\": []}}",
            "/nodes/*/loop/enabled", "{\"loop\": {\"enabled\": false, \"max_iterations\": 2}}"));

    @Test
    void everyMemberOfTheSchemaTakesEffectOrIsRefused() throws IOException {
        Set<String> members = new TreeSet<>();
        JsonNode schema;
        try (InputStream in = getClass().getResourceAsStream("/io/tokenflow/engine/dsl/workflow.schema.json")) {
            schema = Fixtures.JSON.readTree(in);
        }
        collect(schema, schema, "", members, 0);
        Set<String> known = new TreeSet<>(TAKE_EFFECT.keySet());
        known.addAll(REFUSED.keySet());
        assertThat(members).as("schema members, each either taking effect or refused").isEqualTo(known);
    }

    @Test
    void theCompilerRefusesEachMemberThatWouldDoNothingAtItsPointer() {
        REFUSED.forEach((member, node) -> {
            JsonNode document = Fixtures.JSON.readTree("""
                    {"name": "refused", "nodes": [{"id": "a", "type": "function", "config": {"function": "noop"}}]}""");
            JsonNode settings = Fixtures.JSON.readTree(node);
            ((tools.jackson.databind.node.ObjectNode) document.get("nodes").get(0)).setAll(
                    (tools.jackson.databind.node.ObjectNode) settings);
            String pointer = member.replace("/nodes/*", "/nodes/0");
            assertThat(Fixtures.COMPILER.compile(document).diagnostics()).as(member)
                    .filteredOn(diagnostic -> diagnostic.severity() == Severity.ERROR)
                    .extracting(Diagnostic::pointer).contains(pointer);
        });
    }

    private static void collect(JsonNode root, JsonNode node, String path, Set<String> members, int depth) {
        if (depth > 12 || !node.isObject()) {
            return;
        }
        if (node.has("$ref")) {
            String name = node.get("$ref").asString().substring("#/$defs/".length());
            collect(root, root.get("$defs").get(name), path, members, depth + 1);
            return;
        }
        JsonNode properties = node.get("properties");
        if (properties != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = properties.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> property = it.next();
                String child = path + "/" + property.getKey();
                if (path.startsWith("/inputs/properties")) {
                    continue;
                }
                members.add(child);
                collect(root, property.getValue(), child, members, depth + 1);
            }
        }
        if (node.get("items") != null) {
            collect(root, node.get("items"), path + "/*", members, depth + 1);
        }
        for (String combinator : new String[] {"oneOf", "anyOf", "allOf"}) {
            if (node.get(combinator) != null) {
                node.get(combinator).forEach(sub -> collect(root, sub, path, members, depth + 1));
            }
        }
    }
}
