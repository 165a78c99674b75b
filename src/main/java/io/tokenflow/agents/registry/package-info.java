/**
 * The registry of external agents (seed 004): name → URL, auth, timeout and retry policy, in the {@code agents}
 * table, with its REST API ({@code /api/v1/agents}); secrets never leave it.
 */
package io.tokenflow.agents.registry;
