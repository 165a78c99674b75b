/**
 * The {@code http_agent} worker (seed 004's HTTP bridge): POSTs {@code {task_id, input}} to a registered agent and
 * reads {@code {status, output, error}}, retrying transient failures with jittered exponential backoff.
 */
package io.tokenflow.agents.bridge;
