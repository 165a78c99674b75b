package io.tokenflow.agents;

import java.util.UUID;

import tools.jackson.databind.JsonNode;

/**
 * Patches a running run's definition (the run patch API). When a bean of this port exists, LLM agents are offered the
 * {@code patch_workflow} tool on their own run; without one the tool is not offered.
 */
public interface RunPatcher {

    /**
     * Applies an RFC 6902 patch to the run's current definition.
     *
     * @param jsonPatch the patch, a JSON array of operations
     * @param author    who patches, e.g. {@code agent:qualify_lead}
     * @return the run's new IR revision
     * @throws RuntimeException when the patch is refused; its message says why (it is shown to the agent)
     */
    String patch(UUID runId, JsonNode jsonPatch, String author);
}
