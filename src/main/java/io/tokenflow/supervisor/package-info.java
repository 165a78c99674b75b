/**
 * The supervisor: drains the run events streams into PostgreSQL (event log, runs, node executions), setting aside in
 * the quarantine an entry PostgreSQL refuses or that cannot be read (its run fails), fails runs that went idle, and
 * snapshots run counters. PostgreSQL stays off the hot path: Redis buffers while it is away.
 */
package io.tokenflow.supervisor;
