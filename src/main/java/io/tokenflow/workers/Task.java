package io.tokenflow.workers;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import io.tokenflow.tracing.TraceIds;
import tools.jackson.databind.JsonNode;

/**
 * One token's work, as taken from a task stream (docs/worker-protocol.md §2), with its input already resolved from
 * content-addressed storage when it travelled as {@code input_ref}.
 *
 * @param token     token id, the idempotency key of this piece of work
 * @param iteration loop iteration, 0 outside loops
 * @param attempt   delivery attempt, from 1
 * @param input     the node's input ({@code {}} when the token carries none)
 * @param config    the node's config ({@code {}} when the token carries none)
 * @param type      the node type the token names, else the worker type of its stream
 * @param emittedAt when the token was emitted; {@code null} when the token does not say
 * @param traceparent the token's W3C trace context as it came, or {@code null} when it came without one
 */
public record Task(String token, UUID run, String node, String type, int iteration, int attempt, JsonNode input,
                   JsonNode config, Instant emittedAt, String traceparent) {

    public Task {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(config, "config");
    }

    /** The trace context to send on with the work's calls: the token's, or the run's trace and the token's span. */
    public String traceContext() {
        return traceparent != null ? traceparent : TraceIds.traceparent(run, token);
    }
}
