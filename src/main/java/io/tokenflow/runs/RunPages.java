package io.tokenflow.runs;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;

import io.tokenflow.designer.PinnedWorkflow;
import io.tokenflow.designer.PinnedWorkflows;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.replay.RunReplay;
import io.tokenflow.live.LiveEvent;
import io.tokenflow.live.RunEventFeeds;
import io.tokenflow.live.RunLog;
import io.tokenflow.web.NotFoundException;

/**
 * The run page's use cases: the run drawn at any seq (now, or back in time), its graph and one node's executions, all
 * from the run's events (cached, complete, in order) and its pinned workflow version.
 */
@Service
class RunPages {

    private final RunEventFeeds feeds;
    private final PinnedWorkflows workflows;
    private final RunWorkflowRevisions revisions;

    RunPages(RunEventFeeds feeds, PinnedWorkflows workflows, RunWorkflowRevisions revisions) {
        this.feeds = feeds;
        this.workflows = workflows;
        this.revisions = revisions;
    }

    /** The run at seq {@code at} (its newest state when null); hops after {@code hopsAfter} are drawn moving. */
    RunPicture picture(UUID run, Long at, long hopsAfter) {
        return page(run, at, hopsAfter).picture();
    }

    /** The picture (with its graph) and what the page offers, from one read of the run. */
    Page page(UUID run, Long at, long hopsAfter) {
        Loaded loaded = load(run);
        return new Page(RunPictures.draw(run, loaded.pinned.name(), loaded.log, at == null ? Long.MAX_VALUE : at,
                hopsAfter, seen -> revisions.at(run, loaded.pinned, seen)),
                !loaded.pinned.ir().compensators().isEmpty());
    }

    NodeDetails.NodeDetail node(UUID run, String node, Long at) {
        Loaded loaded = load(run);
        int upTo = RunPictures.upTo(loaded.log, at == null ? Long.MAX_VALUE : at);
        List<LiveEvent> seen = loaded.log.events().subList(0, upTo);
        WorkflowIr ir = revisions.at(run, loaded.pinned, seen).ir();
        if (!ir.nodes().containsKey(node)) {
            throw new NotFoundException("Expected node '" + node + "' in workflow '" + loaded.pinned.name()
                    + "' v" + loaded.pinned.version() + ", but it has " + ir.nodes().keySet());
        }
        return NodeDetails.of(ir.node(node), RunReplay.replay(loaded.log.replayableUpTo(upTo)), seen);
    }

    /** Whether the run exists (has events). */
    boolean exists(UUID run) {
        return feeds.log(run).size() > 0;
    }

    private Loaded load(UUID run) {
        RunLog log = feeds.log(run);
        if (log.size() == 0 || !"run.started".equals(log.events().get(0).type())) {
            throw new NotFoundException("Expected a run with id " + run + ", but there is none");
        }
        LiveEvent started = log.events().get(0);
        PinnedWorkflow pinned = workflows.resolve(started.dataText("workflow_id"), null,
                started.data().path("workflow_version").asInt());
        return new Loaded(pinned, log);
    }

    /** What the run page shows first. */
    record Page(RunPicture picture, boolean compensable) {
    }

    private record Loaded(PinnedWorkflow pinned, RunLog log) {
    }
}
