package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import io.tokenflow.engine.dsl.CallDefinition;

/**
 * Follows one document's calls through the stored versions they pin, for {@link WorkflowCalls}: the first call that
 * names nothing, leads back to the caller (or into another loop) or nests too deep. How deep calls nest below a
 * version is remembered, so each version's document is read once per document checked.
 */
final class CallWalk {

    static final int MAX_DEPTH = 10;
    private static final String ARROW = " → ";

    private final Caller caller;
    private final WorkflowCalls calls;
    private final Map<WorkflowVersion.Key, Integer> heights = new HashMap<>();
    private final Set<WorkflowVersion.Key> onPath = new HashSet<>();
    private Problem problem;

    CallWalk(Caller caller, WorkflowCalls calls) {
        this.caller = caller;
        this.calls = calls;
    }

    /** What is wrong with one call of the document, if anything. */
    Optional<Problem> problemOf(CallDefinition call) {
        Optional<Workflow> called = caller.isNamedBy(call) ? Optional.empty() : calls.workflow(call);
        if (callsCaller(call, called)) {
            return Optional.of(cycle(call.pointer(), List.of(caller.name(), pin(call))));
        }
        if (called.isEmpty()) {
            return Optional.of(new Problem("unknown-workflow", call.pointer() + (call.id() != null ? "/id" : "/name"),
                    "Expected a workflow " + (call.id() != null ? "with id " + call.id() : "named '" + call.name()
                            + "'") + " to call, but there is none"));
        }
        WorkflowCalls.Pinned pinned = calls.pinned(called.get(), call);
        if (pinned.version() == null) {
            return Optional.of(new Problem("unknown-workflow", call.pointer() + (call.version() != null ? "/version"
                    : "/tag"), pinned.missing()));
        }
        problem = null;
        onPath.clear();
        height(called.get(), pinned.version(), List.of(caller.name(), label(called.get(), pinned.version())),
                call.pointer());
        return Optional.ofNullable(problem);
    }

    /** How deep calls nest below a version (0: it calls nothing), or -1 with {@link #problem} set. */
    private int height(Workflow workflow, int version, List<String> chain, String pointer) {
        WorkflowVersion.Key key = new WorkflowVersion.Key(workflow.id(), version);
        int depth = chain.size() - 1;
        Integer known = heights.get(key);
        if (known != null || depth > MAX_DEPTH || onPath.contains(key)) {
            return known != null && depth + known <= MAX_DEPTH ? known : refuse(key, depth, known, chain, pointer);
        }
        onPath.add(key);
        int height = 0;
        for (CallDefinition call : calls.calls(workflow.id(), version)) {
            int below = below(call, chain, pointer);
            if (below < 0) {
                return -1;
            }
            height = Math.max(height, below);
        }
        onPath.remove(key);
        heights.put(key, height);
        return height;
    }

    /** How deep one call of a stored version nests, counting itself; a call that pins nothing now counts 0. */
    private int below(CallDefinition call, List<String> chain, String pointer) {
        Optional<Workflow> called = caller.isNamedBy(call) ? Optional.empty() : calls.workflow(call);
        if (callsCaller(call, called)) {
            problem = cycle(pointer, append(chain, pin(call)));
            return -1;
        }
        Integer version = called.map(workflow -> calls.pinned(workflow, call).version()).orElse(null);
        if (version == null) {
            return 0;
        }
        int height = height(called.get(), version, append(chain, label(called.get(), version)), pointer);
        return height < 0 ? -1 : height + 1;
    }

    private int refuse(WorkflowVersion.Key key, int depth, Integer known, List<String> chain, String pointer) {
        if (onPath.contains(key)) {
            problem = new Problem("workflow-cycle", pointer, "Expected no cycle between workflows, but "
                    + String.join(ARROW, chain) + " comes back to " + chain.get(chain.size() - 1));
        } else {
            problem = new Problem("workflow-depth", pointer, "Expected at most " + MAX_DEPTH + " nested workflow "
                    + "calls, but " + String.join(ARROW, chain) + (known == null || known == 0 ? "" : ARROW + "…")
                    + " nests " + (depth + (known == null ? 0 : known)));
        }
        return -1;
    }

    private boolean callsCaller(CallDefinition call, Optional<Workflow> called) {
        return caller.isNamedBy(call) || called.isPresent() && caller.is(called.get());
    }

    private Problem cycle(String pointer, List<String> chain) {
        return new Problem("workflow-cycle", pointer, "Expected no cycle between workflows, but "
                + String.join(ARROW, chain) + " calls back to " + caller.name());
    }

    private static List<String> append(List<String> chain, String link) {
        List<String> longer = new ArrayList<>(chain);
        longer.add(link);
        return longer;
    }

    private static String label(Workflow workflow, int version) {
        return workflow.name() + " v" + version;
    }

    /** A call as written: {@code billing v3} or {@code order@prod}. */
    private static String pin(CallDefinition call) {
        return call.workflow() + (call.version() != null ? " v" + call.version() : "@" + call.tag());
    }

    /** The workflow whose document is checked: its name, and its id unless it is a new workflow. */
    record Caller(String name, UUID id) {

        boolean isNamedBy(CallDefinition call) {
            return name.equals(call.name()) || id != null && id.toString().equalsIgnoreCase(call.id());
        }

        boolean is(Workflow workflow) {
            return workflow.id().equals(id) || workflow.name().equals(name);
        }
    }

    /** One problem of a call, at the pointer of the document's node that makes it. */
    record Problem(String code, String pointer, String message) {

        boolean isCycle() {
            return "workflow-cycle".equals(code);
        }
    }
}
