package io.tokenflow.runs;

import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.RunPatcher;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.RunTenants;
import tools.jackson.databind.JsonNode;

/**
 * Lets LLM agents patch their own run ({@code patch_workflow}) through the same path as the API, against the run's
 * current revision, with the agents' extra guardrail: no widening of any allow-list. The patch acts in the run's
 * tenant (its new nodes may use that tenant's node types only), as an API request would.
 */
@Component
class AgentRunPatcher implements RunPatcher {

    private final PatchRun patching;
    private final RunTenants tenants;

    AgentRunPatcher(PatchRun patching, RunTenants tenants) {
        this.patching = patching;
        this.tenants = tenants;
    }

    @Override
    public String patch(UUID runId, JsonNode jsonPatch, String author) {
        return CurrentTenant.callAs(tenants.requireOfRun(runId), () -> Integer.toString(patching.patch(runId,
                patching.currentRevision(runId), jsonPatch, author, true).revision()));
    }
}
