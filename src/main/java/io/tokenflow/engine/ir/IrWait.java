package io.tokenflow.engine.ir;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A wait node's timer: the engine holds the node's token, then completes the node with its input as output.
 *
 * @param durationMs how long after the token was emitted, or {@code null} when waiting {@code until}
 * @param until      an ISO-8601 instant, or one {@code ${…}} reference resolved when the token arrives
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IrWait(Long durationMs, String until) {
}
