package io.tokenflow.agents.jobs;

import java.time.Duration;
import java.util.Optional;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.AgentSettings;
import io.tokenflow.agents.LlmUsage;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.TaskResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Hands an agent node to an external runner: {@code RPUSH agent:jobs <job>}, then waits on {@code
 * agent:results:<job_id>} for at most {@code config.timeout_s} (default {@code tokenflow.agents.external.timeout}).
 * Once the wait is over, the job is withdrawn if no runner took it and the result list expires (see {@link JobQueues}).
 */
@Component
public class ExternalAgentJobs {

    private final JobQueues queues;
    private final RedisKeys keys;
    private final JsonMapper json;
    private final LlmUsage usage;
    private final Duration defaultTimeout;

    ExternalAgentJobs(JobQueues queues, RedisKeys keys, JsonMapper json, LlmUsage usage, AgentSettings settings) {
        this.queues = queues;
        this.keys = keys;
        this.json = json;
        this.usage = usage;
        this.defaultTimeout = settings.external().timeout();
    }

    public TaskResult run(AgentRun run) throws AgentFailure {
        Duration timeout = timeout(run.task().config().path("timeout_s"));
        String jobId = AgentJob.idOf(run.task().token());
        String job = json.writeValueAsString(AgentJob.of(run, jobId, timeout));
        queues.push(job);
        Optional<String> result = queues.await(jobId, timeout);
        JobQueues.Closed closed = queues.close(job, jobId, timeout);
        if (result.isEmpty()) {
            throw timedOut(jobId, timeout, closed);
        }
        JsonNode parsed = parse(jobId, result.get());
        usage.record(run.task().run(), parsed.path("metadata").path("tokens_used").asLong(0));
        return JobResult.toTaskResult(jobId, parsed, run.routes());
    }

    private AgentFailure timedOut(String jobId, Duration timeout, JobQueues.Closed closed) {
        String why = closed.withdrawn()
                ? "no runner took it from " + keys.agentJobs() + " (is an agent runner reading it?); it is withdrawn"
                : "the runner that took it from " + keys.agentJobs() + " did not answer; a later answer expires with "
                + "the list in " + closed.expiresIn().toSeconds() + " s";
        return AgentFailure.transientFailure("agent_timeout", "Expected a result for agent job " + jobId + " on "
                + keys.agentResults(jobId) + " within " + timeout.toSeconds() + " s, but " + why);
    }

    private JsonNode parse(String jobId, String text) throws AgentFailure {
        try {
            JsonNode parsed = json.readTree(text);
            if (parsed.isObject()) {
                return parsed;
            }
        } catch (JacksonException malformed) {
            // reported below
        }
        throw AgentFailure.permanent("invalid_result", "Expected the result of agent job " + jobId
                + " to be a JSON object, but found " + (text.length() <= 200 ? text : text.substring(0, 200) + "…"));
    }

    private Duration timeout(JsonNode seconds) throws AgentFailure {
        if (seconds.isMissingNode() || seconds.isNull()) {
            return defaultTimeout;
        }
        if (!seconds.isNumber() || seconds.doubleValue() < 1) {
            throw AgentFailure.permanent("invalid_config", "Expected config.timeout_s to be a number of seconds "
                    + ">= 1, but found " + seconds);
        }
        return Duration.ofMillis((long) (seconds.doubleValue() * 1000));
    }
}
