package io.tokenflow.workers.function;

import java.util.UUID;

import tools.jackson.databind.JsonNode;

/**
 * One call of a {@link WorkflowFunction}.
 *
 * @param input   the node's input
 * @param args    {@code config.args} ({@code {}} when absent)
 * @param tokenId the token's id: the idempotency key of the call
 */
public record FunctionCall(JsonNode input, JsonNode args, String tokenId, UUID runId, String nodeId) {
}
