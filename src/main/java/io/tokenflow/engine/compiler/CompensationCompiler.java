package io.tokenflow.engine.compiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.tokenflow.engine.dsl.CompensatorDefinition;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.WorkflowDefinition;
import io.tokenflow.engine.ir.IrCompensator;
import io.tokenflow.engine.types.NodeKind;
import io.tokenflow.engine.types.NodeTypeCatalog;
import io.tokenflow.engine.types.NodeTypeSpec;
import tools.jackson.databind.JsonNode;

/**
 * Compiles the saga settings: each node's {@code compensate} (a task type a worker runs, its config valid against
 * the type's schema) and the workflow's {@code compensation.on}, which is refused when no node has a compensator
 * (it would do nothing).
 */
final class CompensationCompiler {

    private final NodeChecks configs;

    CompensationCompiler(NodeChecks configs) {
        this.configs = configs;
    }

    Map<String, IrCompensator> compensators(WorkflowDefinition workflow, NodeTypeCatalog types,
                                            Diagnostics diagnostics) {
        Map<String, IrCompensator> compensators = new LinkedHashMap<>();
        for (CompensatorDefinition compensator : workflow.compensators()) {
            compile(compensator, types, diagnostics).ifPresent(ir -> compensators.put(compensator.node(), ir));
        }
        return compensators;
    }

    List<String> compensateOn(WorkflowDefinition workflow, Diagnostics diagnostics) {
        JsonNode compensation = workflow.compensation();
        if (compensation == null) {
            return List.of();
        }
        if (workflow.compensators().isEmpty()) {
            diagnostics.error("compensation-without-compensators", null, "/compensation", "Expected a node with "
                    + "'compensate' when the workflow says when compensators run, but no node has one, so "
                    + "'compensation' would do nothing");
        }
        List<String> on = new ArrayList<>();
        compensation.path("on").forEach(ending -> on.add(ending.asString()));
        return on;
    }

    private Optional<IrCompensator> compile(CompensatorDefinition compensator, NodeTypeCatalog types,
                                            Diagnostics diagnostics) {
        Optional<NodeTypeSpec> spec = types.find(compensator.type());
        if (spec.isEmpty()) {
            diagnostics.error("unknown-type", compensator.node(), compensator.pointer() + "/type", "Expected the "
                    + "compensator's type to be one of " + types.all().stream().map(NodeTypeSpec::name).toList()
                    + ", but found '" + compensator.type() + "'");
            return Optional.empty();
        }
        if (spec.get().kind() != NodeKind.TASK || spec.get().worker() == null) {
            diagnostics.error("compensator-not-a-task", compensator.node(), compensator.pointer() + "/type",
                    "Expected the compensator of '" + compensator.node() + "' to be a task a worker runs, but '"
                            + compensator.type() + "' is a " + spec.get().kind().label() + " node type");
            return Optional.empty();
        }
        configs.checkConfig(compensator.node(), compensator.pointer() + "/config", compensator.config(), spec.get(),
                diagnostics);
        return Optional.of(new IrCompensator(compensator.type(), spec.get().worker(), compensator.config()));
    }
}
