package io.tokenflow.engine.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import io.tokenflow.engine.conditions.CompiledCondition;
import io.tokenflow.engine.conditions.ConditionEvaluationException;
import io.tokenflow.engine.conditions.ConditionEvaluator;
import io.tokenflow.engine.ir.IrBranch;
import io.tokenflow.engine.ir.IrLoop;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.WorkflowIr;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decides where tokens go when a node completes: its static dependents, or what its loop and branch decide. A loop
 * goes back to {@code loop_back_to} while its condition holds and passes remain; when the condition stops holding it
 * exits by {@code break_path} and the node's branch (if any) adds its choice; when the limit is reached first it exits
 * by {@code timeout_path} only. Each pass back starts a new iteration, one the run has not handed out before, and a
 * loop's exit goes on at the iteration it was entered at, so every execution of a node in a run, also in a loop
 * nested in another, has its own iteration. A conditional branch takes the first rule that holds, else its default;
 * an agent-driven branch takes the agent's choice when every node of it is allowed, else its default. A dependent
 * that waits for all its dependencies receives an arrival that parks until the last one comes.
 */
public final class Router {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final ConditionEvaluator conditions;

    public Router(ConditionEvaluator conditions) {
        this.conditions = Objects.requireNonNull(conditions, "conditions");
    }

    public Routing route(WorkflowIr ir, String completedNode, RoutingInput input) {
        IrNode node = ir.node(completedNode);
        ObjectNode decision = JSON.objectNode();
        Set<String> targets = new LinkedHashSet<>();
        Routing.LoopStep loopStep = Routing.LoopStep.UNCHANGED;
        int iteration = input.iteration();
        try {
            if (node.loop() != null) {
                IrLoop loop = node.loop();
                int pass = input.loopPasses() + 1;
                boolean again = loop.condition() == null || holds(loop.condition(), input);
                ObjectNode loopDecision = decision.putObject("loop").put("pass", pass)
                        .put("max_iterations", loop.maxIterations());
                if (again && pass < loop.maxIterations()) {
                    loopDecision.put("action", "again").put("loop_back_to", loop.loopBackTo());
                    return new Routing(List.of(new Emission(loop.loopBackTo(), input.nextIteration(), false, 1)),
                            decision, Routing.LoopStep.AGAIN, null);
                }
                loopStep = Routing.LoopStep.EXITED;
                iteration = input.loopEntry();
                if (again && loop.condition() != null) {
                    loopDecision.put("action", "timeout");
                    targets.addAll(loop.timeoutPath());
                    return new Routing(emissions(ir, targets, iteration), decision, loopStep, null);
                }
                loopDecision.put("action", loop.condition() == null ? "done" : "break");
                targets.addAll(loop.breakPath());
            }
            if (node.branch() != null) {
                targets.addAll(branch(node, node.branch(), input, decision));
            } else if (node.loop() == null) {
                targets.addAll(node.dependents());
            }
        } catch (ConditionEvaluationException e) {
            return Routing.failed(e.getMessage());
        }
        return new Routing(emissions(ir, targets, iteration), decision.isEmpty() ? null : decision, loopStep, null);
    }

    private List<String> branch(IrNode node, IrBranch branch, RoutingInput input, ObjectNode decision) {
        ObjectNode taken = decision.putObject("branch");
        if (IrBranch.AGENT_DRIVEN.equals(branch.type())) {
            return agentChoice(branch, input.agentDecision(), taken);
        }
        for (int i = 0; i < branch.rules().size(); i++) {
            IrBranch.Rule rule = branch.rules().get(i);
            boolean holds;
            try {
                holds = holds(rule.condition(), input);
            } catch (ConditionEvaluationException e) {
                throw new ConditionEvaluationException("Branch rule " + describe(rule, i) + " of node '" + node.id()
                        + "' could not be decided: " + e.getMessage(), e);
            }
            if (holds) {
                taken.put("rule", i);
                if (rule.name() != null) {
                    taken.put("name", rule.name());
                }
                strings(taken.putArray("next_nodes"), rule.nextNodes());
                return rule.nextNodes();
            }
        }
        taken.put("default", true);
        strings(taken.putArray("next_nodes"), branch.defaultPath());
        return branch.defaultPath();
    }

    private static List<String> agentChoice(IrBranch branch, Optional<AgentDecision> proposal, ObjectNode taken) {
        ObjectNode agent = taken.putObject("agent");
        if (proposal.isEmpty()) {
            agent.put("accepted", false).put("reason", "The agent proposed no next nodes");
        } else {
            strings(agent.putArray("proposed"), proposal.get().nextNodes());
            if (proposal.get().reasoning() != null) {
                agent.put("reasoning", proposal.get().reasoning());
            }
            List<String> refused = proposal.get().nextNodes().stream()
                    .filter(next -> !branch.availableNextNodes().contains(next)).distinct().toList();
            if (proposal.get().nextNodes().isEmpty()) {
                agent.put("accepted", false).put("reason", "The agent proposed no next nodes");
            } else if (!refused.isEmpty()) {
                agent.put("accepted", false).put("reason", "Expected next nodes among " + branch.availableNextNodes()
                        + ", but the agent proposed " + refused);
                strings(agent.putArray("refused"), refused);
            } else {
                agent.put("accepted", true);
                List<String> chosen = List.copyOf(new LinkedHashSet<>(proposal.get().nextNodes()));
                strings(taken.putArray("next_nodes"), chosen);
                return chosen;
            }
        }
        taken.put("default", true);
        strings(taken.putArray("next_nodes"), branch.defaultPath());
        return branch.defaultPath();
    }

    private boolean holds(CompiledCondition condition, RoutingInput input) {
        return conditions.evaluate(condition, input.conditionContext(condition.contextNodes()));
    }

    private static String describe(IrBranch.Rule rule, int index) {
        return rule.name() != null ? "'" + rule.name() + "'" : "#" + (index + 1);
    }

    private static void strings(ArrayNode array, Collection<String> values) {
        values.forEach(array::add);
    }

    /** One token to each target at {@code iteration}; a target that waits for all its dependencies gets an arrival. */
    public static List<Emission> emissions(WorkflowIr ir, Collection<String> targets, int iteration) {
        List<Emission> emissions = new ArrayList<>(targets.size());
        for (String dependent : targets) {
            IrNode target = ir.node(dependent);
            boolean join = target.waitForAll() && target.dependencies().size() > 1;
            emissions.add(new Emission(dependent, iteration, join, join ? target.dependencies().size() : 1));
        }
        return emissions;
    }
}
