package io.tokenflow.agents;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Agents, under {@code tokenflow.agents}.
 *
 * @param llm                the OpenAI-compatible chat-completions endpoint LLM agents call
 * @param maxLlmTokensPerRun LLM tokens (prompt + completion) all agents of one run may use together
 * @param usageRetention     how long a run's token count is kept after its last use
 * @param pipeline           limits of {@code execute_pipeline}
 * @param external           the seed-001 external runner ({@code agent:jobs})
 */
@ConfigurationProperties("tokenflow.agents")
public record AgentSettings(@DefaultValue Llm llm, @DefaultValue("200000") long maxLlmTokensPerRun,
                            @DefaultValue("7d") Duration usageRetention, @DefaultValue Pipeline pipeline,
                            @DefaultValue External external) {

    public AgentSettings {
        llm = llm == null ? new Llm(null, null, null, null, null, 0, null, 0, 0) : llm;
        pipeline = pipeline == null ? new Pipeline(0, 0, null, 0, null, 0) : pipeline;
        external = external == null ? new External(null, null) : external;
        usageRetention = usageRetention == null ? Duration.ofDays(7) : usageRetention;
        if (maxLlmTokensPerRun < 1) {
            throw new IllegalArgumentException("Expected tokenflow.agents.max-llm-tokens-per-run >= 1, but found "
                    + maxLlmTokensPerRun);
        }
    }

    /**
     * @param baseUrl         e.g. {@code https://api.openai.com/v1} or {@code http://localhost:11434/v1} (Ollama)
     * @param model           the model, unless a node names its own ({@code agent.model})
     * @param apiKey          sent as {@code Authorization: Bearer …} when set
     * @param maxTokens       completion tokens per call, unless a node says otherwise ({@code agent.max_tokens})
     * @param temperature     unless a node says otherwise; the server's default when neither does
     * @param maxRounds       model calls per node execution; the last one is offered no tools, so it must answer
     * @param maxContextChars how much of the run's context (input, earlier outputs) goes into the prompt
     */
    public record Llm(String baseUrl, String model, String apiKey, @DefaultValue("10s") Duration connectTimeout,
                      @DefaultValue("120s") Duration readTimeout, @DefaultValue("1024") int maxTokens,
                      Double temperature, @DefaultValue("8") int maxRounds,
                      @DefaultValue("20000") int maxContextChars) {

        public Llm {
            connectTimeout = connectTimeout == null ? Duration.ofSeconds(10) : connectTimeout;
            readTimeout = readTimeout == null ? Duration.ofSeconds(120) : readTimeout;
            maxTokens = maxTokens <= 0 ? 1024 : maxTokens;
            maxRounds = maxRounds <= 0 ? 8 : maxRounds;
            maxContextChars = maxContextChars <= 0 ? 20_000 : maxContextChars;
        }

        public boolean hasBaseUrl() {
            return baseUrl != null && !baseUrl.isBlank();
        }
    }

    /**
     * @param maxSteps         steps in one pipeline
     * @param maxRows          rows a table may hold at any step
     * @param httpTimeout      how long one {@code http_request} may take
     * @param maxResponseBytes the largest {@code http_request} response body
     * @param allowedHosts     hosts {@code http_request} may call; empty allows any
     * @param maxResultChars   a pipeline result longer than this goes to CAS; the agent sees a preview
     */
    public record Pipeline(@DefaultValue("20") int maxSteps, @DefaultValue("10000") int maxRows,
                           @DefaultValue("10s") Duration httpTimeout, @DefaultValue("5242880") int maxResponseBytes,
                           List<String> allowedHosts, @DefaultValue("20000") int maxResultChars) {

        public Pipeline {
            maxSteps = maxSteps <= 0 ? 20 : maxSteps;
            maxRows = maxRows <= 0 ? 10_000 : maxRows;
            httpTimeout = httpTimeout == null ? Duration.ofSeconds(10) : httpTimeout;
            maxResponseBytes = maxResponseBytes <= 0 ? 5 * 1024 * 1024 : maxResponseBytes;
            allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
            maxResultChars = maxResultChars <= 0 ? 20_000 : maxResultChars;
        }
    }

    /**
     * @param timeout         how long to wait for a runner's result, unless the node says ({@code config.timeout_s})
     * @param resultRetention how long a job's result list lives once nobody waits on it (at least the job's timeout)
     */
    public record External(@DefaultValue("5m") Duration timeout, @DefaultValue("1h") Duration resultRetention) {

        public External {
            timeout = timeout == null ? Duration.ofMinutes(5) : timeout;
            resultRetention = resultRetention == null ? Duration.ofHours(1) : resultRetention;
            if (resultRetention.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("Expected tokenflow.agents.external.result-retention >= 1s, but "
                        + "found " + resultRetention);
            }
        }
    }
}
