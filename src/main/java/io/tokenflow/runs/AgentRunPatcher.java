package io.tokenflow.runs;

import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.RunPatcher;
import tools.jackson.databind.JsonNode;

/**
 * Lets LLM agents patch their own run ({@code patch_workflow}) through the same path as the API, against the run's
 * current revision, with the agents' extra guardrail: no widening of any allow-list.
 */
@Component
class AgentRunPatcher implements RunPatcher {

    private final PatchRun patching;

    AgentRunPatcher(PatchRun patching) {
        this.patching = patching;
    }

    @Override
    public String patch(UUID runId, JsonNode jsonPatch, String author) {
        return Integer.toString(patching.patch(runId, patching.currentRevision(runId), jsonPatch, author, true)
                .revision());
    }
}
