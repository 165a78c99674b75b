package io.tokenflow.agents;

import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * The per-run LLM token guardrail: every agent call adds its usage to the run's counter in Redis ({@code INCRBY},
 * atomic across workers); once the counter passes {@code tokenflow.agents.max-llm-tokens-per-run} agent nodes fail.
 */
@Component
public class LlmUsage {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final AgentSettings settings;

    LlmUsage(RedisConnections redis, RedisKeys keys, AgentSettings settings) {
        this.redis = redis;
        this.keys = keys;
        this.settings = settings;
    }

    public long used(UUID run) {
        String value = redis.commands().get(keys.llmTokens(run));
        return value == null ? 0 : Long.parseLong(value);
    }

    /** Fails when the run has no tokens left for another call. */
    public void requireBudget(UUID run) throws AgentFailure {
        long used = used(run);
        if (used >= settings.maxLlmTokensPerRun()) {
            throw exhausted(run, used);
        }
    }

    /** Adds a call's usage; fails when the run has now used more than it may. */
    public long record(UUID run, long tokens) throws AgentFailure {
        if (tokens <= 0) {
            return used(run);
        }
        String key = keys.llmTokens(run);
        long used = redis.commands().incrby(key, tokens);
        redis.commands().pexpire(key, settings.usageRetention().toMillis());
        if (used > settings.maxLlmTokensPerRun()) {
            throw exhausted(run, used);
        }
        return used;
    }

    private AgentFailure exhausted(UUID run, long used) {
        return AgentFailure.permanent("llm_token_limit", "Expected run " + run + " to use at most "
                + settings.maxLlmTokensPerRun() + " LLM tokens (tokenflow.agents.max-llm-tokens-per-run), but its "
                + "agents have used " + used);
    }
}
