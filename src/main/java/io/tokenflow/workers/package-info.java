/**
 * The built-in task workers ({@code function}, {@code http}, {@code transform}, {@code filter}, {@code aggregate}):
 * the {@link io.tokenflow.workers.TaskHandler} contract, its registry and settings; the runtime that feeds handlers
 * from Redis Streams lives in {@code runtime}.
 */
package io.tokenflow.workers;
