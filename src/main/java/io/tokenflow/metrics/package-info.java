/**
 * Gauges of the whole deployment read from Redis and PostgreSQL on a schedule: task queues per node type and shard
 * (depth, oldest waiting entry, workers busy and idle), the dead-letter queue and pending approvals. The engine's
 * counters and timers are kept where their events happen: {@code supervisor.RunMetrics} (tokens, runs, hops),
 * {@code redis.LuaScript} (Lua step time), {@code supervisor.CounterSnapshots} (counter divergence) and
 * {@code supervisor.EventLogLag}. docs/operations.md lists them all.
 */
package io.tokenflow.metrics;
