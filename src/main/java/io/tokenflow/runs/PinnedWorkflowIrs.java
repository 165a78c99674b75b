package io.tokenflow.runs;

import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.WorkflowIrs;
import io.tokenflow.designer.PinnedWorkflows;
import io.tokenflow.designer.WorkflowCompilation;
import io.tokenflow.engine.ir.WorkflowIr;
import tools.jackson.databind.JsonNode;

/** The coordinator's IR, from the designer's pinned workflow versions and its compiler. */
@Component
class PinnedWorkflowIrs implements WorkflowIrs {

    private final PinnedWorkflows workflows;
    private final WorkflowCompilation compilation;

    PinnedWorkflowIrs(PinnedWorkflows workflows, WorkflowCompilation compilation) {
        this.workflows = workflows;
        this.compilation = compilation;
    }

    @Override
    public WorkflowIr pinned(UUID workflowId, int version) {
        return workflows.get(workflowId, version).ir();
    }

    @Override
    public WorkflowIr compile(JsonNode definition) {
        return compilation.compileStoredOrThrow(definition).ir();
    }
}
