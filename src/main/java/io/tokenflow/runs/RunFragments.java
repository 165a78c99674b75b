package io.tokenflow.runs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import io.tokenflow.live.LiveTemplates;

/**
 * The run page's changing regions as out-of-band fragments of {@code runs/run.html} (the page's own template): pushed
 * live, and answered to the time-travel slider.
 */
@Component
class RunFragments {

    static final List<String> STATE = List.of("run-summary", "run-nodes", "run-approvals", "run-timeline", "run-hops",
            "run-graph-data");

    private final LiveTemplates templates;

    RunFragments(LiveTemplates templates) {
        this.templates = templates;
    }

    String state(RunPicture picture) {
        return templates.render("runs/run", STATE, Map.of("run", picture));
    }

    /**
     * What changed since the picture a page shows: the summary, the nodes whose state changed (each swapped in place),
     * the approvals when they changed, the newer timeline lines, the hops and the graph's edges a token travelled since
     * (each swapped in place). A push then costs a few elements, not the whole page; when everything the timeline shows
     * is new, or the run switched to another revision, it is the whole {@link #state}.
     */
    String changes(RunPicture picture, RunPicture shown) {
        List<RunPicture.EventView> newer = picture.timeline().stream().filter(event -> event.seq() > shown.seq())
                .toList();
        RunGraph graph = picture.graph();
        // the same revision has the same nodes and edges in the same order (RunGraph.of): only their states differ
        if (newer.size() >= picture.timeline().size() || picture.nodes().size() != shown.nodes().size()
                || graph.revision() != shown.graph().revision()) {
            return state(picture);
        }
        List<RunPicture.NodeView> changedNodes = new ArrayList<>();
        changed(picture.nodes(), shown.nodes()).forEach(index -> changedNodes.add(picture.nodes().get(index)));
        List<ChangedEdge> changedEdges = new ArrayList<>();
        changed(graph.edges(), shown.graph().edges()).forEach(index -> changedEdges.add(
                new ChangedEdge(index, graph.edges().get(index))));
        List<String> regions = new ArrayList<>(List.of("run-summary", "run-node-changes"));
        if (!picture.approvals().equals(shown.approvals())) {
            regions.add("run-approvals");
        }
        regions.addAll(List.of("run-timeline-newer", "run-hops", "run-edge-changes"));
        return templates.render("runs/run", regions, Map.of("run", picture, "newer", newer,
                "changedNodes", changedNodes, "changedEdges", changedEdges));
    }

    /** The positions where {@code now} differs from {@code before} (lists of equal length). */
    private static List<Integer> changed(List<?> now, List<?> before) {
        List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < now.size(); i++) {
            if (!now.get(i).equals(before.get(i))) {
                changed.add(i);
            }
        }
        return changed;
    }

    /** An edge of the graph with its place among the revision's edges (its element's id on the page). */
    record ChangedEdge(int index, RunGraph.Edge edge) {
    }
}
