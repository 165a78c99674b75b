package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenflow.engine.dsl.Diagnostic;

/**
 * What a page shows beside a submitted form: messages for its fields (e.g. {@code name}), one for the
 * document as a whole (unreadable JSON), and the compiler's diagnostics grouped by the node at fault.
 *
 * @param status the HTTP status the page is answered with
 */
public record FormProblems(Map<String, String> fields, String document, List<NodeProblems> nodes, int status) {

    public FormProblems {
        fields = Map.copyOf(fields);
        nodes = List.copyOf(nodes);
    }

    static FormProblems none() {
        return new FormProblems(Map.of(), null, List.of(), 200);
    }

    static FormProblems nameTaken(String message) {
        return new FormProblems(Map.of("name", message), null, List.of(), 409);
    }

    static FormProblems unreadable(String message) {
        return new FormProblems(Map.of(), message, List.of(), 400);
    }

    /** Diagnostics about one of the form's {@code fields} (e.g. {@code /name}) go beside it; the rest by node. */
    static FormProblems of(List<Diagnostic> diagnostics, List<String> formFields) {
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, List<Diagnostic>> byNode = new LinkedHashMap<>();
        for (Diagnostic diagnostic : diagnostics) {
            String field = diagnostic.pointer().isEmpty() ? "" : diagnostic.pointer().substring(1);
            if (diagnostic.nodeId() == null && formFields.contains(field)) {
                fields.merge(field, diagnostic.message(), (first, next) -> first + " " + next);
            } else {
                byNode.computeIfAbsent(diagnostic.nodeId(), node -> new ArrayList<>()).add(diagnostic);
            }
        }
        List<NodeProblems> nodes = new ArrayList<>();
        byNode.forEach((node, found) -> nodes.add(new NodeProblems(node, found)));
        nodes.sort((a, b) -> Boolean.compare(a.nodeId() != null, b.nodeId() != null));
        return new FormProblems(fields, null, nodes, 422);
    }

    public boolean any() {
        return !fields.isEmpty() || document != null || !nodes.isEmpty();
    }

    public String field(String name) {
        return fields.get(name);
    }

    /** How many diagnostics are listed by node (field and document messages are shown beside their fields). */
    public int listed() {
        return nodes.stream().mapToInt(n -> n.diagnostics().size()).sum();
    }

    /**
     * The diagnostics about one node, or about the workflow as a whole when {@code nodeId} is {@code null}.
     */
    public record NodeProblems(String nodeId, List<Diagnostic> diagnostics) {

        public NodeProblems {
            diagnostics = List.copyOf(diagnostics);
        }

        /** A DOM id for the group: {@code problems-node-B}, or {@code problems-workflow}. */
        public String anchor() {
            return nodeId == null ? "problems-workflow" : "problems-node-" + nodeId.replaceAll("[^A-Za-z0-9_-]", "_");
        }
    }
}
