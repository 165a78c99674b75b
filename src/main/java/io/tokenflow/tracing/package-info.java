/**
 * Tracing: one W3C trace per run, its id the run id's 32 hexadecimal digits, with a span for the run, one per node
 * execution (a token at its node), one per attempt of it and one per routing Lua step. A run outlives processes and
 * restarts, so its spans are not held open in memory: the supervisor builds the run's and nodes' spans from the events
 * it writes to the event log, and every id is derived from the run's and token's ids ({@link
 * io.tokenflow.tracing.TraceIds}), so a worker anywhere can join the trace from the {@code traceparent} of its task.
 * Spans go out over OTLP/HTTP with OpenTelemetry's exporter when {@code tokenflow.tracing.otlp-endpoint} is set.
 */
package io.tokenflow.tracing;
