/**
 * The supervisor: drains the run events streams into PostgreSQL (event log, runs, node executions), fails runs that
 * went idle, and snapshots run counters. PostgreSQL stays off the hot path: Redis buffers while it is away.
 */
package io.tokenflow.supervisor;
