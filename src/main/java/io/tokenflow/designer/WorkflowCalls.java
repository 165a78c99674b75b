package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.engine.dsl.CallDefinition;
import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.tenancy.CurrentTenant;
import tools.jackson.databind.JsonNode;

/**
 * Checks a document's workflow nodes against the other workflows, which the engine's compiler cannot see: the called
 * workflow, version and tag exist, and no chain of calls (each tag resolved to the version it points at now) leads
 * back to the calling workflow or nests deeper than {@value CallWalk#MAX_DEPTH} calls. Asked when a version is about
 * to be stored or a draft is checked, never when a stored version is compiled again to run it.
 */
@Component
class WorkflowCalls {

    private final WorkflowRepository workflows;
    private final WorkflowVersionRepository versions;
    private final WorkflowTagRepository tags;
    private final WorkflowDocuments documents;

    WorkflowCalls(WorkflowRepository workflows, WorkflowVersionRepository versions, WorkflowTagRepository tags,
                  WorkflowDocuments documents) {
        this.workflows = workflows;
        this.versions = versions;
        this.tags = tags;
        this.documents = documents;
    }

    /**
     * Every problem of the document's calls, one per workflow node at most.
     *
     * @param dsl        a document that compiles on its own
     * @param workflowId the workflow the document is a version of, or {@code null} for a new one (known by its name)
     */
    @Transactional(readOnly = true)
    public List<Diagnostic> check(JsonNode dsl, UUID workflowId) {
        CallWalk walk = new CallWalk(new CallWalk.Caller(dsl.path("name").asString(""), workflowId), this);
        List<Diagnostic> problems = new ArrayList<>();
        for (NodeCall call : calls(dsl)) {
            walk.problemOf(call.settings()).ifPresent(problem -> problems.add(Diagnostic.error(problem.code(),
                    call.nodeId(), problem.pointer(), problem.message())));
        }
        return problems;
    }

    /**
     * The first cycle that pointing a tag of the workflow at the version would close: any cycle through a call of
     * that tag passes through the workflow, so following the version's calls back to the workflow finds it.
     */
    @Transactional(readOnly = true)
    public Optional<String> cycleFrom(Workflow workflow, int version) {
        CallWalk walk = new CallWalk(new CallWalk.Caller(workflow.name(), workflow.id()), this);
        return calls(workflow.id(), version).stream().map(walk::problemOf).flatMap(Optional::stream)
                .filter(CallWalk.Problem::isCycle).map(CallWalk.Problem::message).findFirst();
    }

    /** The calls a document makes: its nodes' {@code workflow} settings. */
    static List<NodeCall> calls(JsonNode dsl) {
        List<NodeCall> calls = new ArrayList<>();
        JsonNode nodes = dsl.path("nodes");
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode call = nodes.get(i).path("workflow");
            if (call.isObject()) {
                calls.add(new NodeCall(nodes.get(i).path("id").asString(null), new CallDefinition("/nodes/" + i
                        + "/workflow", call.path("name").asString(null), call.path("id").asString(null),
                        call.path("version").isInt() ? call.get("version").asInt() : null,
                        call.path("tag").asString(null))));
            }
        }
        return calls;
    }

    /** The workflow a call names, by id or by name, in the current tenant. */
    Optional<Workflow> workflow(CallDefinition call) {
        if (call.id() != null) {
            try {
                return workflows.findById(UUID.fromString(call.id()))
                        .filter(workflow -> CurrentTenant.sees(workflow.tenant()));
            } catch (IllegalArgumentException notAnId) {
                return Optional.empty();
            }
        }
        return call.name() == null ? Optional.empty()
                : workflows.findByTenantAndName(CurrentTenant.forNewRows(), call.name());
    }

    /** The version a call pins on its workflow now (a tag resolved), or what is missing. */
    Pinned pinned(Workflow workflow, CallDefinition call) {
        if (call.version() != null) {
            boolean exists = call.version() >= 1 && call.version() <= workflow.latestVersion();
            return exists ? new Pinned(call.version(), null) : new Pinned(null, "Expected version " + call.version()
                    + " of workflow '" + workflow.name() + "', but its versions are 1 to " + workflow.latestVersion());
        }
        return tags.findByWorkflowIdAndTag(workflow.id(), call.tag())
                .map(tag -> new Pinned(tag.version(), null))
                .orElseGet(() -> new Pinned(null, "Expected tag '" + call.tag() + "' on workflow '" + workflow.name()
                        + "', but " + tagsOf(workflow) + "; its latest version is " + workflow.latestVersion()));
    }

    /** The calls a stored version makes. */
    List<CallDefinition> calls(UUID workflowId, int version) {
        return versions.findByWorkflowIdAndVersion(workflowId, version)
                .map(stored -> calls(documents.read(stored.dsl())).stream().map(NodeCall::settings).toList())
                .orElse(List.of());
    }

    private String tagsOf(Workflow workflow) {
        List<String> names = tags.findByWorkflowIdOrderByTag(workflow.id()).stream().map(WorkflowTag::tag).toList();
        return names.isEmpty() ? "it has no tags" : "its tags are " + String.join(", ", names);
    }

    /** A workflow node's call. */
    record NodeCall(String nodeId, CallDefinition settings) {
    }

    /** A called version, or why the call pins none. */
    record Pinned(Integer version, String missing) {
    }
}
