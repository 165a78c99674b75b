package io.tokenflow.engine.compiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.tokenflow.engine.conditions.CompiledCondition;
import io.tokenflow.engine.conditions.ConditionCompiler;
import io.tokenflow.engine.dsl.BranchDefinition;
import io.tokenflow.engine.dsl.CallDefinition;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.FormField;
import io.tokenflow.engine.dsl.HumanDefinition;
import io.tokenflow.engine.dsl.LoopDefinition;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.Target;
import io.tokenflow.engine.ir.IrBranch;
import io.tokenflow.engine.ir.IrDeadline;
import io.tokenflow.engine.ir.IrForm;
import io.tokenflow.engine.ir.IrHuman;
import io.tokenflow.engine.ir.IrJoin;
import io.tokenflow.engine.ir.IrLoop;
import io.tokenflow.engine.ir.IrMap;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.IrOnFailure;
import io.tokenflow.engine.ir.IrCall;
import io.tokenflow.engine.ir.IrSignal;
import io.tokenflow.engine.ir.IrWait;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.types.NodeKind;
import io.tokenflow.engine.types.NodeTypeCatalog;
import io.tokenflow.engine.types.NodeTypeSpec;

/** Builds the IR nodes from the checked workflow, compiling each condition on the way. */
final class IrAssembler {

    private final ConditionCompiler conditions;
    private final TerminalDetector terminals = new TerminalDetector();
    private final RetryCompiler retries = new RetryCompiler();
    private final OnFailureCompiler onFailures = new OnFailureCompiler();
    private final LimitsCompiler limits = new LimitsCompiler();
    private final MapNodeCompiler maps = new MapNodeCompiler();

    IrAssembler(ConditionCompiler conditions) {
        this.conditions = conditions;
    }

    WorkflowIr assemble(DesugaredWorkflow workflow, RoutingGraph graph, Map<String, Set<String>> references,
                        NodeTypeCatalog types, Diagnostics diagnostics) {
        Map<String, IrNode> nodes = new LinkedHashMap<>();
        for (NodeDefinition node : workflow.nodes().values()) {
            Optional<NodeTypeSpec> spec = types.find(node.type());
            nodes.put(node.id(), assembleNode(node, spec, workflow, graph,
                    references.getOrDefault(node.id(), Set.of()), diagnostics));
        }
        List<String> terminalNodes = nodes.values().stream().filter(IrNode::isTerminal).map(IrNode::id).toList();
        return new WorkflowIr(WorkflowIr.FORMAT_VERSION, workflow.source().name(), graph.entryNodes(), terminalNodes,
                nodes, workflow.source().inputs(), deadline(workflow.source().deadline()), Map.of(), List.of());
    }

    private IrNode assembleNode(NodeDefinition node, Optional<NodeTypeSpec> spec, DesugaredWorkflow workflow,
                                RoutingGraph graph, Set<String> references, Diagnostics diagnostics) {
        NodeKind kind = spec.map(NodeTypeSpec::kind).orElse(NodeKind.TASK);
        List<String> dependencies = inAuthoringOrder(graph.predecessors(node.id()), workflow);
        List<String> dependents = node.branch() != null ? List.of() : existing(
                RoutingGraph.staticTargets(node, workflow), workflow);
        boolean waitForAll = Boolean.TRUE.equals(node.waitForAll());
        IrBranch branch = branch(node, workflow, diagnostics);
        IrLoop loop = loop(node, dependents, workflow, diagnostics);
        IrHuman human = human(node.human(), workflow);
        IrOnFailure onFailure = onFailures.compile(node, kind, diagnostics);
        IrWait timer = node.timer() == null ? null : new IrWait(millis(node.timer().duration()), node.timer().until());
        IrSignal signal = node.signal() == null || node.signal().name() == null || node.signal().key() == null ? null
                : new IrSignal(node.signal().name(), node.signal().key(), millis(node.signal().timeout()));
        CallDefinition definedCall = node.call();
        IrCall call = definedCall == null || definedCall.workflow() == null
                || (definedCall.version() == null) == (definedCall.tag() == null) ? null
                : new IrCall(definedCall.workflow(), definedCall.version(), definedCall.tag());
        boolean held = timer != null || signal != null || call != null;
        IrMap map = maps.compile(node, spec, diagnostics);
        return new IrNode(node.id(), node.name(), kind.label(), node.type(),
                map != null ? IrMap.ENGINE_WORKER : spec.map(NodeTypeSpec::worker).orElse(null),
                node.config(), node.input(), dependencies, dependents, terminals.isTerminal(node, dependents, workflow.nodeIds()),
                waitForAll, waitForAll ? new IrJoin(true, dependencies) : null, branch, loop,
                held ? null : retries.compile(node, kind, workflow.source().retry(), diagnostics),
                limits.compile(node, staticPaths(dependents, branch, loop, human, onFailure), diagnostics),
                human, node.agent(), List.copyOf(references), onFailure, timeout(node, kind, diagnostics),
                timer, signal, map, call);
    }

    /** The sets of nodes one step of a node may send tokens to, as far as the workflow says statically. */
    private static List<List<String>> staticPaths(List<String> dependents, IrBranch branch, IrLoop loop,
                                                  IrHuman human, IrOnFailure onFailure) {
        List<List<String>> paths = new ArrayList<>();
        paths.add(dependents);
        if (branch != null) {
            branch.rules().forEach(rule -> paths.add(rule.nextNodes()));
            paths.add(branch.defaultPath());
        }
        if (loop != null) {
            paths.add(loop.breakPath());
            paths.add(loop.timeoutPath());
        }
        if (human != null) {
            paths.add(human.rejectionPath());
        }
        if (onFailure != null) {
            paths.add(onFailure.nextNodes());
        }
        return paths;
    }

    private static Long millis(java.time.Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    /** The run's deadline ({@code deadline}); the schema has checked its members. */
    private static IrDeadline deadline(tools.jackson.databind.JsonNode deadline) {
        if (deadline == null) {
            return null;
        }
        return new IrDeadline(Math.max(1, Math.round(deadline.path("seconds").asDouble() * 1000)),
                deadline.path("action").asString(IrDeadline.FAIL));
    }

    /** A task's time limit in ms ({@code timeout_s}); refused on human nodes, whose timeout escalates. */
    private static Long timeout(NodeDefinition node, NodeKind kind, Diagnostics diagnostics) {
        if (node.timeoutS() == null) {
            return null;
        }
        if (kind == NodeKind.HUMAN) {
            diagnostics.error("timeout-on-human-node", node.id(), node.at("timeout_s"), "Expected timeout_s only on "
                    + "nodes a worker runs, but '" + node.id() + "' is a human node (use human.timeout)");
            return null;
        }
        return Math.max(1, Math.round(node.timeoutS() * 1000));
    }

    private IrBranch branch(NodeDefinition node, DesugaredWorkflow workflow, Diagnostics diagnostics) {
        BranchDefinition branch = node.branch();
        if (branch == null) {
            return null;
        }
        List<IrBranch.Rule> rules = new ArrayList<>();
        for (BranchDefinition.Rule rule : branch.rules()) {
            CompiledCondition condition = compile(rule.condition(), node, rule.pointer() + conditionSuffix(rule),
                    workflow, diagnostics);
            rules.add(new IrBranch.Rule(rule.name(), condition, existing(rule.nextNodes(), workflow)));
        }
        return new IrBranch(true, branch.type(), rules, existing(branch.defaultPath(), workflow),
                existing(branch.availableNextNodes(), workflow));
    }

    private static String conditionSuffix(BranchDefinition.Rule rule) {
        return rule.pointer().endsWith("/condition") ? "" : "/condition";
    }

    private IrLoop loop(NodeDefinition node, List<String> dependents, DesugaredWorkflow workflow, Diagnostics diagnostics) {
        LoopDefinition loop = node.loop();
        if (loop == null) {
            return null;
        }
        CompiledCondition condition = loop.condition() == null ? null
                : compile(loop.condition(), node, loop.pointer() + "/condition", workflow, diagnostics);
        String back = loop.loopBackTo() == null ? node.id() : loop.loopBackTo().nodeId();
        List<String> breakPath = loop.breakPath() == null ? dependents : existing(loop.breakPath(), workflow);
        return new IrLoop(true, condition, loop.maxIterations(), back, breakPath, existing(loop.timeoutPath(), workflow));
    }

    private static IrHuman human(HumanDefinition human, DesugaredWorkflow workflow) {
        if (human == null) {
            return null;
        }
        return new IrHuman(human.title(), human.instructions(), human.approvers(),
                human.timeout() == null ? null : human.timeout().toString(), human.escalationPolicy(),
                human.escalateTo(), existing(human.rejectionPath(), workflow), form(human.form()));
    }

    private static IrForm form(List<FormField> fields) {
        return fields.isEmpty() ? null : new IrForm(fields.stream()
                .map(field -> new IrForm.Field(field.name(), field.label() == null ? field.name() : field.label(),
                        field.source(), field.type()))
                .toList());
    }

    private CompiledCondition compile(tools.jackson.databind.JsonNode condition, NodeDefinition node, String pointer,
                                      DesugaredWorkflow workflow, Diagnostics diagnostics) {
        ConditionCompiler.Scope scope = new ConditionCompiler.Scope(node.id(), pointer, workflow.nodeIds());
        return conditions.compile(condition, scope, diagnostics).orElse(null);
    }

    private static List<String> existing(List<Target> targets, DesugaredWorkflow workflow) {
        return targets.stream().map(Target::nodeId).filter(workflow.nodeIds()::contains).distinct().toList();
    }

    private static List<String> inAuthoringOrder(Set<String> ids, DesugaredWorkflow workflow) {
        return workflow.nodeIds().stream().filter(ids::contains).toList();
    }
}
