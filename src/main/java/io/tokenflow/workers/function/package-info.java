/**
 * The {@code function} worker: named functions (built-in {@code noop}, {@code echo}, {@code set}, {@code sleep},
 * {@code fail}, and any {@link io.tokenflow.workers.function.WorkflowFunction} bean an application adds).
 */
package io.tokenflow.workers.function;
