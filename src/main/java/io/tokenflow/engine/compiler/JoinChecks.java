package io.tokenflow.engine.compiler;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;

/**
 * Fan-in that is probably not what the author meant (warnings), and joins that could wait forever (errors). A
 * {@code wait_for_all} node runs when a token has come from every dependency; if a choice anywhere upstream (a branch,
 * a loop's exit, an approval, an error path) can send tokens towards some dependencies and not others, the run would
 * wait at the join for a token that never comes, so such a join is refused. For each choosing node, every dependency
 * must be reached through the same arms (or through all arms, or none: then it does not depend on the choice).
 */
final class JoinChecks {

    void check(NodeDefinition node, List<String> dependencies, DesugaredWorkflow workflow, RoutingGraph graph,
               Diagnostics diagnostics) {
        boolean waitForAll = Boolean.TRUE.equals(node.waitForAll());
        if (waitForAll && dependencies.size() < 2) {
            diagnostics.warning("join-single", node.id(), node.at("wait_for_all"), "Node '" + node.id() + "' waits for "
                    + "all of its dependencies, but it has " + dependencies.size() + "; wait_for_all has no effect");
        }
        if (node.waitForAll() == null && dependencies.size() >= 2) {
            diagnostics.warning("fan-in-without-join", node.id(), node.pointer(), "Node '" + node.id() + "' has "
                    + dependencies.size() + " incoming paths " + dependencies + " but wait_for_all is not set: it "
                    + "runs once per arriving token; set wait_for_all to true to run it once with all outputs");
        }
        if (waitForAll && dependencies.size() >= 2) {
            checkChoicesUpstream(node, dependencies, workflow, graph, diagnostics);
        }
    }

    private static void checkChoicesUpstream(NodeDefinition join, List<String> dependencies,
                                             DesugaredWorkflow workflow, RoutingGraph graph, Diagnostics diagnostics) {
        for (NodeDefinition chooser : workflow.nodes().values()) {
            List<Set<String>> arms = ChoiceArms.of(chooser, workflow);
            if (arms.size() < 2 || chooser.id().equals(join.id()) || !graph.reaches(chooser.id(), join.id())) {
                continue;
            }
            Map<String, Set<Integer>> armsOf = new HashMap<>();
            for (String dependency : dependencies) {
                Set<Integer> through = new HashSet<>();
                for (int arm = 0; arm < arms.size(); arm++) {
                    if (graph.reachableFrom(arms.get(arm)).contains(dependency)) {
                        through.add(arm);
                    }
                }
                armsOf.put(dependency, through.size() == arms.size() ? Set.of() : through);
            }
            if (new HashSet<>(armsOf.values()).size() > 1) {
                diagnostics.error("join-may-hang", join.id(), join.at("wait_for_all"), "Expected every dependency of "
                        + "join '" + join.id() + "' to send its token whichever way '" + chooser.id() + "' goes, but "
                        + describe(armsOf) + ": the run would wait at '" + join.id() + "' for a token that never "
                        + "comes. Join only paths taken together, or drop wait_for_all");
                return;
            }
        }
    }

    private static String describe(Map<String, Set<Integer>> armsOf) {
        StringBuilder text = new StringBuilder();
        armsOf.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> text
                .append(text.isEmpty() ? "" : ", ").append("'").append(entry.getKey()).append("' ")
                .append(entry.getValue().isEmpty() ? "runs either way" : "runs only on its path"
                        + (entry.getValue().size() > 1 ? "s " : " ") + entry.getValue().stream().sorted()
                        .map(arm -> "#" + (arm + 1)).toList()));
        return text.toString();
    }
}
