package io.tokenflow.engine.compiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenflow.engine.dsl.BranchDefinition;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.EdgeDefinition;
import io.tokenflow.engine.dsl.LoopDefinition;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.Target;
import io.tokenflow.engine.dsl.WorkflowDefinition;
import io.tokenflow.engine.types.NodeTypeCatalog;
import io.tokenflow.engine.types.NodeTypeSpec;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps seed 001's input forms onto the engine's: type defaults are merged into config, conditional edges become
 * branch rules of their source (plain edges of such a node its default), {@code loop} nodes get a loop config from
 * their config, and {@code parallel} nodes are dissolved so their successors hang off their predecessors.
 */
final class Desugarer {

    static final String PARALLEL = "parallel";
    static final String LOOP = "loop";

    DesugaredWorkflow desugar(WorkflowDefinition workflow, NodeTypeCatalog types, Diagnostics diagnostics) {
        ParallelDissolver parallel = new ParallelDissolver(workflow, diagnostics);
        Map<String, NodeDefinition> nodes = new LinkedHashMap<>();
        List<StaticEdge> edges = new ArrayList<>();
        for (NodeDefinition node : workflow.nodes()) {
            if (PARALLEL.equals(node.type()) || nodes.containsKey(node.id())) {
                continue;
            }
            List<EdgeDefinition> outgoing = workflow.edges().stream().filter(e -> e.from().equals(node.id())).toList();
            NodeDefinition resolved = withLoopFromConfig(withTypeDefaults(node, types));
            resolved = withEdgeConditionsAsBranch(resolved, outgoing, parallel, diagnostics);
            nodes.put(node.id(), parallel.expandTargets(resolved));
            if (!hasConditionalEdges(outgoing)) {
                outgoing.forEach(edge -> parallel.expand(new Target(edge.to(), edge.pointer() + "/to"))
                        .forEach(to -> edges.add(new StaticEdge(node.id(), to))));
            }
        }
        return new DesugaredWorkflow(workflow, nodes, edges);
    }

    private static NodeDefinition withTypeDefaults(NodeDefinition node, NodeTypeCatalog types) {
        NodeTypeSpec spec = types.find(node.type()).orElse(null);
        if (spec == null || spec.defaultConfig().isEmpty()) {
            return node;
        }
        ObjectNode merged = spec.defaultConfig().deepCopy();
        merged.setAll(node.config());
        return node.withType(node.type(), merged);
    }

    private static NodeDefinition withLoopFromConfig(NodeDefinition node) {
        if (!LOOP.equals(node.type()) || node.loop() != null || !node.config().has("max_iterations")) {
            return node;
        }
        return node.withLoop(DslSugar.loopFromConfig(node));
    }

    private static NodeDefinition withEdgeConditionsAsBranch(NodeDefinition node, List<EdgeDefinition> outgoing,
                                                             ParallelDissolver parallel, Diagnostics diagnostics) {
        if (!hasConditionalEdges(outgoing)) {
            return node;
        }
        if (node.branch() != null) {
            outgoing.stream().filter(EdgeDefinition::isConditional).forEach(edge -> diagnostics.error(
                    "condition-conflict", node.id(), edge.pointer() + "/condition",
                    "Expected the conditions of node '" + node.id() + "' either in its branch or on its edges, "
                            + "but it has both; move this condition into a branch rule"));
            return node;
        }
        List<BranchDefinition.Rule> rules = new ArrayList<>();
        List<Target> defaults = new ArrayList<>();
        for (EdgeDefinition edge : outgoing) {
            Target to = new Target(edge.to(), edge.pointer() + "/to");
            if (edge.isConditional()) {
                rules.add(new BranchDefinition.Rule(edge.pointer() + "/condition", null, edge.condition(), List.of(to)));
            } else {
                defaults.add(to);
            }
        }
        return node.withBranch(new BranchDefinition(node.pointer(), BranchDefinition.CONDITIONAL, rules, defaults,
                List.of()));
    }

    private static boolean hasConditionalEdges(List<EdgeDefinition> edges) {
        return edges.stream().anyMatch(EdgeDefinition::isConditional);
    }

    /** Reads seed-001 loop settings kept in a {@code loop} node's config. */
    static final class DslSugar {
        private DslSugar() {
        }

        static LoopDefinition loopFromConfig(NodeDefinition node) {
            ObjectNode config = node.config();
            String pointer = node.at("config");
            Target back = config.has("loop_back_to")
                    ? new Target(config.get("loop_back_to").asString(), pointer + "/loop_back_to") : null;
            List<Target> breakPath = config.has("break_path")
                    ? targets(config, "break_path", pointer) : null;
            return new LoopDefinition(pointer, config.get("condition"), config.get("max_iterations").asInt(1), back,
                    breakPath, targets(config, "timeout_path", pointer));
        }

        private static List<Target> targets(ObjectNode config, String member, String pointer) {
            List<Target> targets = new ArrayList<>();
            config.path(member).forEach(value -> targets.add(
                    new Target(value.asString(), pointer + "/" + member + "/" + targets.size())));
            return targets;
        }
    }
}
