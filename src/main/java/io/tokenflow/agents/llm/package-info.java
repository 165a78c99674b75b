/**
 * LLM agents: an OpenAI-compatible chat-completions client, the bounded tool-calling loop, and the tools offered to
 * the model ({@code execute_pipeline}, {@code route}, {@code patch_workflow}).
 */
package io.tokenflow.agents.llm;
