package io.tokenflow.runs;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunRevisions;
import io.tokenflow.designer.PinnedWorkflow;
import io.tokenflow.designer.WorkflowCompilation;
import io.tokenflow.designer.WorkflowQueries;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.live.LiveEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The workflow a run follows at an event: its pinned version, or the revision its newest {@code run.patched} up to
 * that event switched it to (the definition in {@code run_ir_revisions}, compiled). Both are immutable, so they are
 * cached.
 */
@Component
class RunWorkflowRevisions {

    private static final int CACHE_LIMIT = 500;

    private final RunRevisions revisions;
    private final WorkflowQueries queries;
    private final WorkflowCompilation compilation;
    private final JsonMapper json;
    private final Map<String, Revision> cache = new ConcurrentHashMap<>();

    RunWorkflowRevisions(RunRevisions revisions, WorkflowQueries queries, WorkflowCompilation compilation,
                         JsonMapper json) {
        this.revisions = revisions;
        this.queries = queries;
        this.compilation = compilation;
        this.json = json;
    }

    /** The revision in force after the events {@code seen}. */
    Revision at(UUID run, PinnedWorkflow pinned, List<LiveEvent> seen) {
        int number = 0;
        for (LiveEvent event : seen) {
            if ("run.patched".equals(event.type())) {
                number = event.data().path("revision").asInt();
            }
        }
        Revision base = cached(pinned.workflowId() + "@" + pinned.version(), () -> new Revision(0, pinned.ir(),
                queries.atVersion(pinned.workflowId().toString(), pinned.version()).dsl(), Set.of()));
        if (number == 0) {
            return base;
        }
        int revision = number;
        return cached(run + "#" + revision, () -> patched(run, revision, base));
    }

    private Revision patched(UUID run, int number, Revision base) {
        JsonNode definition = json.readTree(revisions.definition(run, number).orElseThrow(() ->
                new IllegalStateException("Expected revision " + number + " of run " + run + ", but it is missing")));
        WorkflowIr ir = compilation.compileStoredOrThrow(definition).ir();
        Set<String> added = new LinkedHashSet<>(ir.nodes().keySet());
        added.removeAll(base.ir().nodes().keySet());
        return new Revision(number, ir, definition, added);
    }

    private Revision cached(String key, java.util.function.Supplier<Revision> load) {
        Revision found = cache.get(key);
        if (found == null) {
            found = load.get();
            if (cache.size() >= CACHE_LIMIT) {
                cache.clear();
            }
            cache.put(key, found);
        }
        return found;
    }

    /**
     * A revision of the run's workflow.
     *
     * @param number     0 for the pinned version, N after the N-th patch
     * @param definition its DSL (with the designer's node positions), or {@code null} when unknown
     * @param added      the nodes patches added to the pinned version
     */
    record Revision(int number, WorkflowIr ir, JsonNode definition, Set<String> added) {

        Revision {
            added = Set.copyOf(added);
        }
    }
}
