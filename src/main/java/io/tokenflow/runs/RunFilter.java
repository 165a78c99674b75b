package io.tokenflow.runs;

import java.util.List;

/**
 * The runs page's filters; blank means any.
 *
 * @param status   one of {@link #STATUSES}
 * @param workflow a workflow's name or id
 */
record RunFilter(String status, String workflow) {

    static final List<String> STATUSES = List.of("PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED");

    RunFilter {
        status = status == null || status.isBlank() ? null : status.trim().toUpperCase(java.util.Locale.ROOT);
        workflow = workflow == null || workflow.isBlank() ? null : workflow.trim();
    }

    /** Why the filter cannot be applied, or {@code null}. */
    String problem() {
        return status == null || STATUSES.contains(status) ? null
                : "Expected a status among " + STATUSES + ", but found '" + status + "'";
    }

    /** Whether a run with this status and workflow (name or id) passes. */
    boolean admits(String runStatus, String workflowName, String workflowId) {
        return (status == null || status.equals(runStatus)) && admitsWorkflow(workflowName, workflowId);
    }

    /** Whether a run of this workflow (name or id) passes, whatever its status. */
    boolean admitsWorkflow(String workflowName, String workflowId) {
        return workflow == null || workflow.equals(workflowName) || workflow.equals(workflowId);
    }
}
