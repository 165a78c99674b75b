package io.tokenflow.engine.routing;

import java.util.ArrayList;
import java.util.List;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.WorkflowIr;

/**
 * Decides where tokens go when a node completes. Static routing: one token per dependent; a dependent that waits
 * for all its dependencies receives an arrival that parks until the last one comes.
 */
public final class Router {

    private Router() {
    }

    public static List<Emission> route(WorkflowIr ir, String completedNode, int iteration) {
        IrNode node = ir.node(completedNode);
        List<Emission> emissions = new ArrayList<>(node.dependents().size());
        for (String dependent : node.dependents()) {
            IrNode target = ir.node(dependent);
            boolean join = target.waitForAll() && target.dependencies().size() > 1;
            emissions.add(new Emission(dependent, iteration, join, join ? target.dependencies().size() : 1));
        }
        return emissions;
    }

    /**
     * What in a workflow this engine cannot run yet, one message per node; empty when all of it can run. Conditions
     * (branches, loops), human approvals and agents are executed by later parts of the engine.
     */
    public static List<String> unsupported(WorkflowIr ir) {
        List<String> problems = new ArrayList<>();
        for (IrNode node : ir.nodes().values()) {
            String feature = node.branch() != null ? "a branch" : node.loop() != null ? "a loop"
                    : "human".equals(node.type()) ? "a human approval" : "agent".equals(node.type()) ? "an LLM agent"
                    : "http_agent".equals(node.nodeType()) ? "an external agent call" : null;
            if (feature != null) {
                problems.add("Node '" + node.id() + "' uses " + feature + ", which this version of the engine does "
                        + "not execute yet");
            }
        }
        return problems;
    }
}
