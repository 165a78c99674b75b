package io.tokenflow.waits;

import java.util.UUID;

import io.tokenflow.engine.runs.RunStatus;
import tools.jackson.databind.JsonNode;

/**
 * How a child run ended, as its {@code runs} row says.
 *
 * @param workflow the called workflow and version as messages name them ({@code billing v3})
 * @param outputs  the child's outputs (terminal node id → output), an empty object when it has none
 * @param error    why it failed or who cancelled it, or {@code null}
 */
record ChildEnding(UUID child, String workflow, RunStatus status, JsonNode outputs, String error) {
}
