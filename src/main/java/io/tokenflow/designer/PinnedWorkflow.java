package io.tokenflow.designer;

import java.util.UUID;

import io.tokenflow.engine.ir.WorkflowIr;

/** One version of a workflow, compiled, as a run pins it. */
public record PinnedWorkflow(UUID workflowId, String tenant, String name, int version, String tag, WorkflowIr ir) {
}
