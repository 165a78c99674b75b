package io.tokenflow.runs;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Service;

import io.tokenflow.coordinator.RunLimits;
import io.tokenflow.coordinator.RunPatches;
import io.tokenflow.coordinator.RunPlan;
import io.tokenflow.coordinator.RunPlans;
import io.tokenflow.coordinator.RunRevisions;
import io.tokenflow.designer.WorkflowCompilation;
import io.tokenflow.designer.WorkflowQueries;
import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.engine.ir.IrBranch;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.patch.InvalidPatchException;
import io.tokenflow.engine.patch.JsonPatch;
import io.tokenflow.engine.replay.RunPatched;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.ForbiddenException;
import io.tokenflow.web.InvalidWorkflowException;
import io.tokenflow.web.NotFoundException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Patches a running run: applies an RFC 6902 patch to the run's current definition, compiles it, checks the run's
 * guardrails, stores the result as the run's next revision and switches the run to it in one Lua step. Nothing changes
 * unless all of it holds; tokens in flight stay valid, and a patch removing a node that holds one is refused.
 */
@Service
public class PatchRun {

    private final RunPatches patches;
    private final RunRevisions revisions;
    private final RunPlans plans;
    private final RunQueries runs;
    private final WorkflowQueries workflows;
    private final WorkflowCompilation compilation;
    private final RunLimits limits;
    private final JsonMapper json;
    private final Clock clock;

    PatchRun(RunPatches patches, RunRevisions revisions, RunPlans plans, RunQueries runs, WorkflowQueries workflows,
             WorkflowCompilation compilation, RunLimits limits, JsonMapper json, Clock clock) {
        this.patches = patches;
        this.revisions = revisions;
        this.plans = plans;
        this.runs = runs;
        this.workflows = workflows;
        this.compilation = compilation;
        this.limits = limits;
        this.json = json;
        this.clock = clock;
    }

    /**
     * @param expected the revision the patch was made against ({@code If-Match})
     * @param agent    whether an agent patches (it may not widen any agent's allow-list)
     */
    public PatchedRun patch(UUID runId, int expected, JsonNode patchDocument, String author, boolean agent) {
        JsonPatch patch = JsonPatch.parse(patchDocument);
        if (patch.size() == 0) {
            // it would change nothing but still take a revision and one of the run's patches
            throw new InvalidPatchException("Expected a run patch to have at least one operation, but it has none",
                    -1, "");
        }
        int current = patches.currentRevision(runId);
        if (current < 0) {
            if (!runs.exists(runId)) {
                throw new NotFoundException("Expected a run with id " + runId + ", but there is none");
            }
            throw new ConflictException("Expected run " + runId + " to be running, but it has ended; only running runs "
                    + "can be patched");
        }
        if (expected != current) {
            throw new ConflictException("Expected the patch to apply to revision " + expected + ", but the run is at "
                    + "revision " + current + "; read it again and re-apply your change", Map.of("revision", current));
        }
        if (current + 1 > limits.maxPatches()) {
            throw new ConflictException("Expected at most " + limits.maxPatches() + " patches per run "
                    + "(tokenflow.run-limits.max-patches), but this would be patch " + (current + 1));
        }
        RunPlan plan = plans.find(runId).orElseThrow(() -> new ConflictException("Expected run " + runId
                + " to be running, but it has ended"));
        JsonNode base = definition(runId, plan, 0);
        JsonNode before = current == 0 ? base : definition(runId, plan, current);
        JsonNode after = patch.apply(before);
        CompilationResult compiled = compilation.compile(after);
        if (!compiled.succeeded()) {
            throw new InvalidWorkflowException(compiled.diagnostics());
        }
        WorkflowIr original = compilation.compileStoredOrThrow(base).ir();
        WorkflowIr previous = plan.workflow().ir();
        WorkflowIr next = compiled.ir();
        Set<String> added = difference(next.nodes().keySet(), original.nodes().keySet());
        if (added.size() > limits.maxAddedNodes()) {
            throw new BadRequestException(422, "Expected patches to add at most " + limits.maxAddedNodes() + " nodes "
                    + "to a run (tokenflow.run-limits.max-added-nodes), but the run would have " + added.size()
                    + " added: " + added, "");
        }
        if (agent) {
            requireNoWiderAllowList(previous, next);
        }
        Set<String> removed = difference(previous.nodes().keySet(), next.nodes().keySet());
        int revision = current + 1;
        revisions.insert(runId, revision, json.writeValueAsString(after), json.writeValueAsString(next),
                json.writeValueAsString(patch.toJson()), author, clock.instant());
        RunPatches.Outcome outcome = patches.apply(runId, current, revision, removed,
                eventData(revision, patch, author, difference(next.nodes().keySet(), previous.nodes().keySet()),
                        removed));
        if (outcome != RunPatches.Outcome.APPLIED) {
            revisions.delete(runId, revision);
            throw switch (outcome) {
                case REMOVES_LIVE_NODE -> new ConflictException("Expected the patch to remove only nodes without "
                        + "work in flight, but one of " + removed + " holds a token, a join arrival or a pending "
                        + "approval; wait until it has moved on");
                case STALE_REVISION -> new ConflictException("Expected the run to be at revision " + current + ", but "
                        + "another patch was applied first; read it again and re-apply your change");
                default -> new ConflictException("Expected run " + runId + " to be running, but it has ended");
            };
        }
        return new PatchedRun(runId, revision, List.copyOf(difference(next.nodes().keySet(),
                previous.nodes().keySet())), List.copyOf(removed), compiled.warnings());
    }

    /** The run's current revision, or -1 when it is not running. */
    public int currentRevision(UUID runId) {
        return patches.currentRevision(runId);
    }

    private JsonNode definition(UUID runId, RunPlan plan, int revision) {
        if (revision == 0) {
            return workflows.atVersion(plan.workflow().workflowId().toString(), plan.workflow().version()).dsl();
        }
        return json.readTree(revisions.definition(runId, revision).orElseThrow(() -> new IllegalStateException(
                "Expected revision " + revision + " of run " + runId + ", but it is missing")));
    }

    private static void requireNoWiderAllowList(WorkflowIr previous, WorkflowIr next) {
        for (IrNode node : next.nodes().values()) {
            IrBranch branch = node.branch();
            if (branch == null || !IrBranch.AGENT_DRIVEN.equals(branch.type())) {
                continue;
            }
            IrNode before = previous.nodes().get(node.id());
            List<String> allowed = before == null || before.branch() == null ? List.of()
                    : before.branch().availableNextNodes();
            List<String> widened = new ArrayList<>(branch.availableNextNodes());
            widened.removeAll(allowed);
            if (!widened.isEmpty()) {
                throw new ForbiddenException("Expected an agent's patch to keep every agent's allowed next nodes, but "
                        + "it would let node '" + node.id() + "' route to " + widened);
            }
        }
    }

    private String eventData(int revision, JsonPatch patch, String author, Set<String> added, Set<String> removed) {
        return RunPatched.data(revision, author, patch.toJson(), added, removed);
    }

    private static Set<String> difference(Set<String> from, Set<String> minus) {
        Set<String> result = new LinkedHashSet<>(from);
        result.removeAll(minus);
        return result;
    }

    /** A patch applied: the run's new revision, the nodes it added and removed, and compile warnings. */
    public record PatchedRun(UUID runId, int revision, List<String> addedNodes, List<String> removedNodes,
                             List<?> warnings) {
    }
}
