/**
 * The worker runtime: consumer threads that read tokens from the task streams of their type (all shards), run the
 * type's {@link io.tokenflow.workers.TaskHandler}, report completions and acknowledge, and take over the tokens of
 * dead consumers (docs/worker-protocol.md).
 */
package io.tokenflow.workers.runtime;
