package io.tokenflow.agents.llm;

import java.util.Optional;

import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.Decision;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** One execution of an agent node: its run, the decision the model made (if any) and what its tools did. */
final class AgentSession {

    private final AgentRun run;
    private final ArrayNode toolCalls = JsonNodeFactory.instance.arrayNode();
    private Decision decision;
    private long tokens;
    private int rounds;

    AgentSession(AgentRun run) {
        this.run = run;
    }

    AgentRun run() {
        return run;
    }

    void decide(Decision chosen) {
        this.decision = chosen;
    }

    Optional<Decision> decision() {
        return Optional.ofNullable(decision);
    }

    void countRound(long usedTokens) {
        rounds++;
        tokens += usedTokens;
    }

    int rounds() {
        return rounds;
    }

    long tokens() {
        return tokens;
    }

    /** Remembers a tool call for the node's output (and so the run's event log). */
    void logToolCall(String tool, JsonNode arguments, boolean succeeded, String result) {
        ObjectNode call = toolCalls.addObject();
        call.put("tool", tool);
        call.set("arguments", arguments);
        call.put("ok", succeeded);
        call.put("result", result.length() <= 500 ? result : result.substring(0, 500) + "…");
    }

    ArrayNode toolCalls() {
        return toolCalls;
    }
}
