/**
 * The {@code agent} worker: runs each agent node with the LLM ({@code agents.llm}) or hands it to an external runner
 * ({@code agents.jobs}). It sits beside them, so the shared agent types in {@code agents} depend on neither.
 */
package io.tokenflow.agents.worker;
