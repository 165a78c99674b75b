package io.tokenflow.engine.compiler;

import java.util.ArrayList;
import java.util.List;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.ir.IrRetry;
import io.tokenflow.engine.types.NodeKind;
import tools.jackson.databind.JsonNode;

/**
 * A node's retry policy: its own {@code retry}, else the workflow's {@code retry} (the default of every node a worker
 * runs). Members left out take {@link IrRetry}'s defaults. The schema has checked each member's type and range; this
 * checks what spans members, and refuses a retry where nothing could be retried (a human node).
 */
final class RetryCompiler {

    /** The policy, or {@code null} when the node has none (one attempt). */
    IrRetry compile(NodeDefinition node, NodeKind kind, JsonNode workflowDefault, Diagnostics diagnostics) {
        if (kind == NodeKind.HUMAN) {
            if (node.retry() != null) {
                diagnostics.error("retry-on-human-node", node.id(), node.at("retry"), "Expected retry only on nodes "
                        + "a worker runs, but '" + node.id() + "' is a human node (its timeout escalates instead)");
            }
            return null;
        }
        JsonNode retry = node.retry() != null ? node.retry() : workflowDefault;
        if (retry == null) {
            return null;
        }
        String pointer = node.retry() != null ? node.at("retry") : "/retry";
        long backoff = retry.path("backoff_ms").asLong(IrRetry.DEFAULT_BACKOFF_MS);
        long maxBackoff = retry.path("max_backoff_ms").asLong(Math.max(backoff, IrRetry.DEFAULT_MAX_BACKOFF_MS));
        if (maxBackoff < backoff) {
            diagnostics.error("invalid-retry", node.id(), pointer + "/max_backoff_ms", "Expected max_backoff_ms ("
                    + maxBackoff + ") to be at least backoff_ms (" + backoff + ")");
            return null;
        }
        List<String> retryOn = new ArrayList<>();
        retry.path("retry_on").forEach(code -> retryOn.add(code.asString()));
        return new IrRetry(retry.path("max_attempts").asInt(IrRetry.DEFAULT_MAX_ATTEMPTS), backoff,
                retry.path("multiplier").asDouble(IrRetry.DEFAULT_MULTIPLIER), maxBackoff,
                retry.path("jitter").asDouble(IrRetry.DEFAULT_JITTER), retryOn);
    }
}
