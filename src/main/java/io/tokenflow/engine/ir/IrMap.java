package io.tokenflow.engine.ir;

import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A map node: its token goes to the engine ({@link IrNode#worker()} is {@link #ENGINE_WORKER}), which runs one task
 * per element of {@code items} on {@code itemWorker}'s stream, at most {@code concurrency} at a time, and completes
 * the node with the list of their outputs, in order.
 *
 * @param items      one {@code ${…}} reference giving the list, resolved when the token arrives
 * @param itemWorker the worker type whose stream receives the elements' tasks (the node type's worker)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IrMap(String items, int concurrency, int maxItems, String itemWorker) {

    /** The stream the engine reads a map node's tokens from. */
    public static final String ENGINE_WORKER = "map";
    public static final int DEFAULT_CONCURRENCY = 10;
    public static final int DEFAULT_MAX_ITEMS = 10_000;

    public IrMap {
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(itemWorker, "itemWorker");
    }
}
