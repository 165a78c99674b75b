package io.tokenflow.agents.llm;

import io.tokenflow.agents.AgentRun;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A tool offered to the model: its function definition, and what calling it does. */
interface AgentTool {

    String name();

    /** Whether the tool can be offered for this node at all (e.g. {@code route} only with an agent-driven branch). */
    boolean availableFor(AgentRun run);

    /** The chat-completions {@code function} object: name, description and JSON Schema parameters. */
    ObjectNode definition(AgentRun run);

    /** Runs one call; the returned text is the tool message the model reads. */
    String call(JsonNode arguments, AgentSession session) throws ToolCallException;
}
