package io.tokenflow.designer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import io.tokenflow.engine.dsl.Diagnostic;
import tools.jackson.databind.JsonNode;

/**
 * A workflow's detail page: its latest version's nodes as compiled (with their warnings), DSL, IR and history.
 *
 * @param warnings workflow-level warnings (those about a node are on its {@link NodeRow})
 */
public record WorkflowPage(UUID id, String name, String description, int latestVersion, Map<String, Integer> tags,
                           Instant updatedAt, List<NodeRow> nodes, List<Diagnostic> warnings, String dsl, String ir,
                           List<VersionRow> versions) {

    public WorkflowPage {
        tags = new TreeMap<>(tags);
        nodes = List.copyOf(nodes);
        warnings = List.copyOf(warnings);
        versions = List.copyOf(versions);
    }

    static WorkflowPage of(WorkflowSnapshot latest, List<VersionSummary> history) {
        JsonNode compiled = latest.ir().path("nodes");
        List<NodeRow> nodes = new ArrayList<>();
        authoredIds(latest.dsl(), compiled).forEach(id -> nodes.add(NodeRow.of(compiled.path(id), latest.diagnostics())));
        List<Diagnostic> workflowWarnings = latest.diagnostics().stream()
                .filter(d -> nodes.stream().noneMatch(n -> n.id().equals(d.nodeId()))).toList();
        List<VersionRow> versions = history.stream().map(VersionRow::of).toList();
        return new WorkflowPage(latest.id(), latest.name(), latest.description(), latest.latestVersion(),
                latest.tags(), latest.updatedAt(), nodes, workflowWarnings, latest.dsl().toPrettyString(),
                latest.ir().toPrettyString(), versions);
    }

    /**
     * The compiled nodes' ids in the order they are authored in the DSL (stored JSON objects do not keep member
     * order), followed by any the compiler added.
     */
    private static Set<String> authoredIds(JsonNode dsl, JsonNode compiled) {
        Set<String> ids = new LinkedHashSet<>();
        dsl.path("nodes").forEach(node -> {
            if (compiled.has(node.path("id").asString(""))) {
                ids.add(node.path("id").asString());
            }
        });
        ids.addAll(compiled.propertyNames());
        return ids;
    }

    public String exportUrl(int version) {
        return "/api/v1/workflows/" + id + "/versions/" + version + "/dsl";
    }

    /**
     * One compiled node: how it is wired and what the compiler warns about it.
     *
     * @param dependents the nodes it may emit to: static edges, branch targets and loop exits
     */
    public record NodeRow(String id, String type, String kind, List<String> dependencies, List<String> dependents,
                          boolean terminal, boolean join, boolean branch, boolean loop, List<Diagnostic> warnings) {

        public NodeRow {
            dependencies = List.copyOf(dependencies);
            dependents = List.copyOf(dependents);
            warnings = List.copyOf(warnings);
        }

        static NodeRow of(JsonNode node, List<Diagnostic> diagnostics) {
            String id = node.path("id").asString();
            return new NodeRow(id, node.path("node_type").asString(node.path("type").asString()),
                    node.path("type").asString(), strings(node.path("dependencies")), successors(node),
                    node.path("is_terminal").asBoolean(false), node.path("join").isObject(),
                    node.path("branch").path("enabled").asBoolean(false),
                    node.path("loop").path("enabled").asBoolean(false),
                    diagnostics.stream().filter(d -> id.equals(d.nodeId())).toList());
        }

        /** Static dependents, then every node a branch may route to and a loop may leave to. */
        private static List<String> successors(JsonNode node) {
            Set<String> ids = new LinkedHashSet<>(strings(node.path("dependents")));
            JsonNode branch = node.path("branch");
            branch.path("rules").forEach(rule -> ids.addAll(strings(rule.path("next_nodes"))));
            ids.addAll(strings(branch.path("default")));
            ids.addAll(strings(branch.path("available_next_nodes")));
            ids.addAll(strings(node.path("loop").path("break_path")));
            ids.addAll(strings(node.path("loop").path("timeout_path")));
            return List.copyOf(ids);
        }

        private static List<String> strings(JsonNode array) {
            List<String> values = new ArrayList<>();
            array.forEach(value -> values.add(value.asString()));
            return values;
        }
    }

    /** One version in the history, with the RFC 6902 patch that made it from its parent (none for version 1). */
    public record VersionRow(int version, Integer parentVersion, String author, Instant createdAt, String message,
                             String patch) {

        static VersionRow of(VersionSummary summary) {
            return new VersionRow(summary.version(), summary.parentVersion(), summary.author(), summary.createdAt(),
                    summary.message(),
                    summary.patch() == null || summary.patch().isNull() ? null : summary.patch().toPrettyString());
        }
    }
}
