package io.tokenflow.runs;

import tools.jackson.databind.JsonNode;

/**
 * A request to run a workflow.
 *
 * @param workflow       id or name
 * @param tag            the tag to run (e.g. {@code main}); with neither tag nor version, the latest version
 * @param inputs         the run's input (a JSON object), validated against the workflow's declared inputs
 * @param idempotencyKey the same key returns the same run
 */
public record StartRunCommand(String workflow, String tag, Integer version, JsonNode inputs, String idempotencyKey) {
}
