package io.tokenflow.designer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.CallDefinition;

/** Following calls through stored versions, against workflows held in memory instead of PostgreSQL. */
class CallWalkTests {

    private final StoredCalls stored = new StoredCalls();

    @Test
    void namesTheChainOfACallThatComesBackThroughATag() {
        UUID order = UUID.randomUUID();
        stored.version("billing", 3, call("order", null, "prod"));
        CallWalk walk = new CallWalk(new CallWalk.Caller("order", order), stored);
        assertThat(walk.problemOf(call("billing", 3, null))).contains(new CallWalk.Problem("workflow-cycle",
                "/nodes/0/workflow", "Expected no cycle between workflows, but order → billing v3 → order@prod "
                + "calls back to order"));
    }

    @Test
    void refusesALoopAmongTheCalledWorkflowsThatDoesNotPassTheCaller() {
        stored.version("b", 1, call("c", 1, null));
        stored.version("c", 1, call("b", 1, null));
        CallWalk walk = new CallWalk(new CallWalk.Caller("x", null), stored);
        assertThat(walk.problemOf(call("b", 1, null))).map(CallWalk.Problem::message).contains("Expected no cycle "
                + "between workflows, but x → b v1 → c v1 → b v1 comes back to b v1");
    }

    @Test
    void countsNestingThroughVersionsItHasFollowedBefore() {
        for (int i = 1; i < 10; i++) {
            stored.version("a" + i, 1, call("a" + (i + 1), 1, null));
        }
        stored.version("a10", 1);
        stored.version("b", 1, call("a1", 1, null));
        CallWalk walk = new CallWalk(new CallWalk.Caller("x", null), stored);
        assertThat(walk.problemOf(call("a1", 1, null))).as("ten calls deep").isEmpty();
        assertThat(walk.problemOf(call("b", 1, null))).map(CallWalk.Problem::message).contains("Expected at most 10 "
                + "nested workflow calls, but x → b v1 → a1 v1 → … nests 11");
    }

    @Test
    void passesOverAStoredCallOfWhatNoLongerExists() {
        stored.version("b", 1, call("gone", 1, null), call("b-tagged", null, "removed"));
        stored.version("b-tagged", 1);
        CallWalk walk = new CallWalk(new CallWalk.Caller("x", null), stored);
        assertThat(walk.problemOf(call("b", 1, null))).isEmpty();
    }

    private static CallDefinition call(String name, Integer version, String tag) {
        return new CallDefinition("/nodes/0/workflow", name, null, version, tag);
    }

    /** Workflows, their versions' calls and their tags, in memory. */
    private static final class StoredCalls extends WorkflowCalls {

        private final Map<String, Workflow> byName = new HashMap<>();
        private final Map<WorkflowVersion.Key, List<CallDefinition>> calls = new HashMap<>();

        StoredCalls() {
            super(null, null, null, null);
        }

        void version(String name, int version, CallDefinition... made) {
            Workflow workflow = byName.computeIfAbsent(name, n -> new Workflow(UUID.randomUUID(), "default", n, null,
                    "t", Instant.EPOCH));
            while (workflow.latestVersion() < version) {
                workflow.advanceTo(workflow.latestVersion() + 1, name, null, Instant.EPOCH);
            }
            calls.put(new WorkflowVersion.Key(workflow.id(), version), List.of(made));
        }

        @Override
        Optional<Workflow> workflow(CallDefinition call) {
            return Optional.ofNullable(byName.get(call.name()));
        }

        @Override
        Pinned pinned(Workflow workflow, CallDefinition call) {
            return call.version() != null ? new Pinned(call.version(), null) : new Pinned(null, "no tags here");
        }

        @Override
        List<CallDefinition> calls(UUID workflowId, int version) {
            return calls.getOrDefault(new WorkflowVersion.Key(workflowId, version), List.of());
        }
    }
}
