package io.tokenflow.agents.jobs;

import java.time.Duration;

import org.springframework.stereotype.Component;

import io.lettuce.core.KeyValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.AgentSettings;
import io.tokenflow.agents.LlmUsage;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.TaskResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Hands an agent node to an external runner: {@code RPUSH agent:jobs <job>}, then {@code BLPOP
 * agent:results:<job_id>} on a connection of the consumer thread's own (a blocking pop would stall a shared one) for
 * at most {@code config.timeout_s} (default {@code tokenflow.agents.external.timeout}).
 */
@Component
public class ExternalAgentJobs {

    private static final Duration SLACK = Duration.ofSeconds(5);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final JsonMapper json;
    private final LlmUsage usage;
    private final Duration defaultTimeout;
    private final ThreadLocal<StatefulRedisConnection<String, String>> blocking = new ThreadLocal<>();

    ExternalAgentJobs(RedisConnections redis, RedisKeys keys, JsonMapper json, LlmUsage usage,
                      AgentSettings settings) {
        this.redis = redis;
        this.keys = keys;
        this.json = json;
        this.usage = usage;
        this.defaultTimeout = settings.external().timeout();
    }

    public TaskResult run(AgentRun run) throws AgentFailure {
        Duration timeout = timeout(run.task().config().path("timeout_s"));
        String jobId = AgentJob.idOf(run.task().token());
        redis.commands().rpush(keys.agentJobs(), json.writeValueAsString(AgentJob.of(run, jobId, timeout)));
        KeyValue<String, String> result = blockingCommands(timeout).blpop(Math.max(1, timeout.toSeconds()),
                keys.agentResults(jobId));
        if (result == null || result.isEmpty()) {
            throw AgentFailure.transientFailure("agent_timeout", "Expected a result for agent job " + jobId
                    + " on " + keys.agentResults(jobId) + " within " + timeout.toSeconds() + " s, but no runner "
                    + "answered (is an agent runner reading " + keys.agentJobs() + "?)");
        }
        JsonNode parsed = parse(jobId, result.getValue());
        usage.record(run.task().run(), parsed.path("metadata").path("tokens_used").asLong(0));
        return JobResult.toTaskResult(jobId, parsed, run.routes());
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

    private RedisCommands<String, String> blockingCommands(Duration timeout) {
        StatefulRedisConnection<String, String> connection = blocking.get();
        if (connection == null || !connection.isOpen()) {
            connection = redis.dedicated();
            blocking.set(connection);
        }
        connection.setTimeout(timeout.plus(SLACK));
        return connection.sync();
    }
}
