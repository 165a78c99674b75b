package io.tokenflow.agents.worker;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.AgentRuns;
import io.tokenflow.agents.jobs.ExternalAgentJobs;
import io.tokenflow.agents.llm.LlmAgent;
import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.JsonNode;

/**
 * {@code agent}: runs the node with the configured LLM ({@code config.runner} absent or {@code llm}) or hands it to
 * an external agent runner over the seed-001 queues ({@code config.runner: "external"}).
 */
@Component
class AgentTaskHandler implements TaskHandler {

    private final AgentRuns runs;
    private final LlmAgent llm;
    private final ExternalAgentJobs external;

    AgentTaskHandler(AgentRuns runs, LlmAgent llm, ExternalAgentJobs external) {
        this.runs = runs;
        this.llm = llm;
        this.external = external;
    }

    @Override
    public String type() {
        return "agent";
    }

    @Override
    public TaskResult execute(Task task) {
        try {
            JsonNode runner = task.config().path("runner");
            String name = runner.isMissingNode() || runner.isNull() ? "llm" : runner.asString("");
            return switch (name) {
                case "llm" -> llm.run(runs.load(task));
                case "external" -> external.run(runs.load(task));
                default -> throw AgentFailure.permanent("invalid_config", "Expected config.runner of node '"
                        + task.node() + "' to be 'llm' or 'external', but found " + runner);
            };
        } catch (AgentFailure e) {
            return e.failure();
        }
    }
}
