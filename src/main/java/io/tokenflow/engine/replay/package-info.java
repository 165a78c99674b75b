/**
 * The run events of {@code docs/run-events.md} as typed records, and the replay that folds a run's events in
 * {@code seq} order into its state: status, counter, in-flight tokens, node executions, pending joins and path.
 */
package io.tokenflow.engine.replay;
