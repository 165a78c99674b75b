/**
 * Agents: the types all their parts share. The {@code agent} worker ({@code worker}: an LLM with tools in {@code llm},
 * or an external runner over the seed-001 queues in {@code jobs}), the {@code http_agent} worker and its registry
 * ({@code bridge}, {@code registry}), and the data primitives agents run ({@code pipeline}) build on them. Run patching
 * is a port, {@link io.tokenflow.agents.RunPatcher}.
 */
package io.tokenflow.agents;
