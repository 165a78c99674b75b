package io.tokenflow.agents.llm;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.AgentSettings;
import io.tokenflow.agents.BoundedHttp;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Calls {@code POST <base-url>/chat/completions} of an OpenAI-compatible server (OpenAI, Ollama, vLLM, …) with
 * {@code Authorization: Bearer <api-key>} when a key is configured. 429, 5xx, time-outs and network errors are
 * transient failures; other 4xx are permanent.
 */
@Component
class ChatClient {

    private static final int MAX_ANSWER_BYTES = 10 * 1024 * 1024;

    private final AgentSettings.Llm settings;
    private final JsonMapper json;
    private final HttpClient client;

    ChatClient(AgentSettings settings, JsonMapper json) {
        this.settings = settings.llm();
        this.json = json;
        this.client = HttpClient.newBuilder().connectTimeout(this.settings.connectTimeout()).build();
    }

    ChatReply complete(ObjectNode request, Duration timeout) throws AgentFailure {
        String base = settings.baseUrl().strip();
        URI uri = URI.create((base.endsWith("/") ? base : base + "/") + "chat/completions");
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(request)));
        if (settings.apiKey() != null && !settings.apiKey().isBlank()) {
            builder.header("Authorization", "Bearer " + settings.apiKey().strip());
        }
        return reply(uri, send(uri, builder.build(), timeout));
    }

    private BoundedHttp.Response send(URI uri, HttpRequest request, Duration timeout) throws AgentFailure {
        try {
            return BoundedHttp.send(client, request, MAX_ANSWER_BYTES);
        } catch (BoundedHttp.TooLarge e) {
            throw AgentFailure.permanent("llm_invalid_response", e.getMessage());
        } catch (HttpTimeoutException e) {
            throw AgentFailure.transientFailure("llm_timeout", "Expected the LLM at " + uri + " to answer within "
                    + timeout.toSeconds() + " s (tokenflow.agents.llm.read-timeout or agent.timeout_s), but it did not");
        } catch (IOException e) {
            throw AgentFailure.transientFailure("llm_unreachable", "Expected to reach the LLM at " + uri
                    + " (tokenflow.agents.llm.base-url), but: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw AgentFailure.transientFailure("interrupted", "Expected the LLM call to finish, but the worker was "
                    + "interrupted");
        }
    }

    private ChatReply reply(URI uri, BoundedHttp.Response response) throws AgentFailure {
        int status = response.status();
        if (!response.successful()) {
            String message = "Expected a 2xx answer from the LLM at " + uri + ", but got " + status + ": "
                    + response.snippet() + (status == 401 || status == 403
                    ? " (check tokenflow.agents.llm.api-key)" : "");
            throw status == 429 || status >= 500 ? AgentFailure.transientFailure("llm_http_" + status, message)
                    : AgentFailure.permanent("llm_http_" + status, message);
        }
        try {
            JsonNode body = json.readTree(response.text());
            JsonNode choice = body.path("choices").path(0);
            if (!choice.path("message").isObject()) {
                throw invalid(uri, "no choices[0].message");
            }
            return new ChatReply(choice.get("message"), body.path("usage").path("total_tokens").asLong(0),
                    choice.path("finish_reason").asString(""));
        } catch (JacksonException e) {
            throw invalid(uri, "malformed JSON: " + e.getOriginalMessage());
        }
    }

    private static AgentFailure invalid(URI uri, String what) {
        return AgentFailure.permanent("llm_invalid_response", "Expected a chat completion from " + uri
                + ", but the answer has " + what);
    }
}
