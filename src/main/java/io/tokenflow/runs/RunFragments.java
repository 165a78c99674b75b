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
     * the approvals when they changed, the newer timeline lines, the hops and the graph (which edges tokens travelled).
     * A push then costs a few elements, not the whole page; when everything the timeline shows is new, or the run
     * switched to another revision, it is the whole {@link #state}.
     */
    String changes(RunPicture picture, RunPicture shown) {
        List<RunPicture.EventView> newer = picture.timeline().stream().filter(event -> event.seq() > shown.seq())
                .toList();
        if (newer.size() >= picture.timeline().size() || picture.nodes().size() != shown.nodes().size()
                || picture.graph().revision() != shown.graph().revision()) {
            return state(picture);
        }
        List<RunPicture.NodeView> changedNodes = new ArrayList<>();
        for (int i = 0; i < picture.nodes().size(); i++) {
            if (!picture.nodes().get(i).equals(shown.nodes().get(i))) {
                changedNodes.add(picture.nodes().get(i));
            }
        }
        List<String> regions = new ArrayList<>(List.of("run-summary", "run-node-changes"));
        if (!picture.approvals().equals(shown.approvals())) {
            regions.add("run-approvals");
        }
        regions.addAll(List.of("run-timeline-newer", "run-hops", "run-graph-data"));
        return templates.render("runs/run", regions, Map.of("run", picture, "newer", newer,
                "changedNodes", changedNodes));
    }
}
