package io.tokenflow.agents.llm;

import java.time.Duration;
import java.util.List;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.AgentSettings;
import io.tokenflow.agents.LlmUsage;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs an agent node with the configured LLM: a tool-calling loop of at most {@code max-rounds} model calls (the
 * last one is offered no tools, so the model must answer), each counted against the run's token budget.
 */
@Component
public class LlmAgent {

    private final AgentSettings.Llm settings;
    private final ChatClient chat;
    private final Toolbox toolbox;
    private final Prompts prompts;
    private final LlmUsage usage;

    LlmAgent(AgentSettings settings, ChatClient chat, Toolbox toolbox, Prompts prompts, LlmUsage usage) {
        this.settings = settings.llm();
        this.chat = chat;
        this.toolbox = toolbox;
        this.prompts = prompts;
        this.usage = usage;
    }

    public TaskResult run(AgentRun run) throws AgentFailure {
        ChatRequest request = ChatRequest.of(settings, run);
        List<AgentTool> tools = toolbox.offered(run);
        AgentSession session = new AgentSession(run);
        ArrayNode messages = prompts.opening(run, tools);
        ArrayNode definitions = messages.arrayNode();
        tools.forEach(tool -> definitions.addObject().put("type", "function").set("function", tool.definition(run)));
        ToolCalls calls = new ToolCalls(tools, session);
        for (int round = 1; ; round++) {
            usage.requireBudget(run.task().run());
            boolean last = round >= settings.maxRounds();
            ChatReply reply = chat.complete(request.body(messages, last ? null : definitions), request.timeout());
            session.countRound(reply.totalTokens());
            usage.record(run.task().run(), reply.totalTokens());
            if (last || !reply.callsTools()) {
                return AgentAnswer.of(session, reply.content(), request.model());
            }
            messages.add(assistantTurn(reply.message()));
            calls.answer(reply.message().path("tool_calls"), messages);
        }
    }

    private static ObjectNode assistantTurn(JsonNode message) {
        ObjectNode turn = messageCopy(message);
        turn.put("role", "assistant");
        return turn;
    }

    private static ObjectNode messageCopy(JsonNode message) {
        ObjectNode copy = ((ObjectNode) message).deepCopy();
        if (!copy.has("content")) {
            copy.putNull("content");
        }
        return copy;
    }

    /** The model, limits and timeout of one node's calls: the node's {@code agent} settings over the defaults. */
    record ChatRequest(String model, Double temperature, int maxTokens, Duration timeout) {

        static ChatRequest of(AgentSettings.Llm settings, AgentRun run) throws AgentFailure {
            JsonNode agent = run.settings();
            String model = agent.path("model").isString() ? agent.get("model").stringValue() : settings.model();
            if (!settings.hasBaseUrl() || model == null || model.isBlank()) {
                throw AgentFailure.permanent("llm_not_configured", "Expected an LLM for agent node '"
                        + run.node().id() + "', but none is configured: set tokenflow.agents.llm.base-url (an "
                        + "OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://localhost:11434/v1), "
                        + "tokenflow.agents.llm.model (or the node's agent.model) and, for hosted APIs, "
                        + "tokenflow.agents.llm.api-key; or set config.runner to \"external\" for an external runner");
            }
            // Double.valueOf keeps the conditional a Double: with doubleValue() alone the settings' null is unboxed
            Double temperature = agent.path("temperature").isNumber()
                    ? Double.valueOf(agent.get("temperature").doubleValue()) : settings.temperature();
            int maxTokens = agent.path("max_tokens").canConvertToInt() && agent.path("max_tokens").isIntegralNumber()
                    ? agent.get("max_tokens").intValue() : settings.maxTokens();
            Duration timeout = agent.path("timeout_s").isNumber()
                    ? Duration.ofMillis((long) (agent.get("timeout_s").doubleValue() * 1000)) : settings.readTimeout();
            return new ChatRequest(model, temperature, maxTokens, timeout);
        }

        /** The request body; {@code tools} null or empty offers none. */
        ObjectNode body(ArrayNode messages, ArrayNode tools) {
            ObjectNode body = messages.objectNode();
            body.put("model", model);
            body.set("messages", messages);
            body.put("max_tokens", maxTokens);
            if (temperature != null) {
                body.put("temperature", temperature);
            }
            if (tools != null && !tools.isEmpty()) {
                body.set("tools", tools);
                body.put("tool_choice", "auto");
            }
            return body;
        }
    }
}
