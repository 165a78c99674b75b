package io.tokenflow.agents.llm;

import java.util.List;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.AgentSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The opening messages of an agent node: a system message (the node's {@code agent.system_prompt}, or one saying
 * what the node is, its tools and its routing choices) and a user message with the node's {@code agent.prompt} and
 * the run's context as JSON ({@code node_input}, {@code run_input}, {@code earlier_outputs}), cut at
 * {@code tokenflow.agents.llm.max-context-chars}.
 */
@Component
class Prompts {

    private static final String DEFAULT_PROMPT = "Work on this node's input and give your result.";

    private final JsonMapper json;
    private final int maxContextChars;

    Prompts(JsonMapper json, AgentSettings settings) {
        this.json = json;
        this.maxContextChars = settings.llm().maxContextChars();
    }

    ArrayNode opening(AgentRun run, List<AgentTool> tools) {
        ArrayNode messages = JsonNodeFactory.instance.arrayNode();
        JsonNode own = run.settings().path("system_prompt");
        messages.addObject().put("role", "system").put("content", own.isString() ? own.stringValue()
                : system(run, tools));
        messages.addObject().put("role", "user").put("content", prompt(run) + "\n\nContext (JSON):\n"
                + context(run));
        return messages;
    }

    private static String system(AgentRun run, List<AgentTool> tools) {
        StringBuilder text = new StringBuilder("You are the agent node '").append(run.node().id())
                .append("' of a Tokenflow workflow run. Use the tools when they help")
                .append(tools.isEmpty() ? " (none are offered here)" : ": " + tools.stream().map(AgentTool::name)
                        .toList())
                .append(". When you are done, reply with your result; reply with JSON when the result is structured.");
        if (run.routes()) {
            text.append(" You also decide where the run goes next: call the route tool with next_nodes chosen only "
                            + "among ").append(run.availableNextNodes()).append(" and your reasoning. Any other node "
                            + "is refused and the run goes to ").append(run.defaultNextNodes()).append(" instead.");
        }
        return text.toString();
    }

    private static String prompt(AgentRun run) {
        JsonNode prompt = run.settings().path("prompt");
        return prompt.isString() && !prompt.stringValue().isBlank() ? prompt.stringValue() : DEFAULT_PROMPT;
    }

    private String context(AgentRun run) {
        ObjectNode context = JsonNodeFactory.instance.objectNode();
        context.set("node_input", run.task().input());
        context.set("run_input", run.runInput());
        ObjectNode outputs = context.putObject("earlier_outputs");
        run.outputs().forEach(outputs::set);
        String text = json.writeValueAsString(context);
        return text.length() <= maxContextChars ? text
                : text.substring(0, maxContextChars) + "… (cut: the context has " + text.length() + " characters)";
    }
}
