package io.tokenflow.coordinator;

import java.util.UUID;

import io.tokenflow.engine.ir.WorkflowIr;
import tools.jackson.databind.JsonNode;

/**
 * Where the coordinator gets the IR it routes with. A port: the workflows and their compiler belong to the designer,
 * and the runs feature adapts them ({@code runs.PinnedWorkflowIrs}), so the coordinator depends on neither.
 */
public interface WorkflowIrs {

    /** The IR of a pinned workflow version. */
    WorkflowIr pinned(UUID workflowId, int version);

    /** The IR of a run's own revision: its definition (stored when the run was patched, so it compiled then). */
    WorkflowIr compile(JsonNode definition);
}
