/**
 * The dead-letter queue: entries of tasks parked by {@code on_failure: dlq} (rows the supervisor keeps from the event
 * log), listed, reprocessed and discarded by operators on the {@code /dlq} page, the REST API and the command line.
 */
package io.tokenflow.dlq;
