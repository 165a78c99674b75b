package io.tokenflow.agents.bridge;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.BoundedHttp;
import io.tokenflow.agents.registry.AgentEndpoint;
import io.tokenflow.agents.registry.AgentRegistry;
import io.tokenflow.tenancy.RunTenants;
import io.tokenflow.workers.FailureKind;
import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code http_agent}: {@code POST <agent url>} with {@code {"task_id": <token>, "input": <node input>}}, the agent's
 * auth, {@code Idempotency-Key: <token>} and a timeout ({@code config.timeout_s}, else the agent's). 4xx fails at once;
 * 5xx, time-outs and network errors are retried per the agent's retry policy, then fail transiently.
 */
@Component
class HttpAgentTaskHandler implements TaskHandler {

    static final int MAX_ANSWER_BYTES = 5 * 1024 * 1024;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final AgentRegistry registry;
    private final RunTenants tenants;
    private final JsonMapper json;

    HttpAgentTaskHandler(AgentRegistry registry, RunTenants tenants, JsonMapper json) {
        this.registry = registry;
        this.tenants = tenants;
        this.json = json;
    }

    @Override
    public String type() {
        return "http_agent";
    }

    @Override
    public TaskResult execute(Task task) {
        try {
            AgentEndpoint agent = agent(task, task.config().path("agent"));
            HttpRequest request = request(task, agent, timeout(task.config().path("timeout_s"), agent));
            Backoff backoff = new Backoff(agent.retry(), ThreadLocalRandom.current());
            for (int call = 1; ; call++) {
                try {
                    return callOnce(agent, request);
                } catch (AgentFailure failure) {
                    if (failure.failure().kind() != FailureKind.TRANSIENT || call > agent.retry().maxRetries()) {
                        throw call > 1 ? afterCalls(failure, call) : failure;
                    }
                    pause(backoff.before(call));
                }
            }
        } catch (AgentFailure e) {
            return e.failure();
        }
    }

    private TaskResult callOnce(AgentEndpoint agent, HttpRequest request) throws AgentFailure {
        String call = "POST " + agent.url() + " (agent '" + agent.name() + "')";
        try {
            return answer(agent, BoundedHttp.send(client, request, MAX_ANSWER_BYTES));
        } catch (BoundedHttp.TooLarge e) {
            throw AgentFailure.permanent("response_too_large", e.getMessage());
        } catch (HttpTimeoutException e) {
            throw AgentFailure.transientFailure("timeout", "Expected an answer to " + call + " within "
                    + request.timeout().map(Duration::toMillis).orElse(0L) + " ms, but none came");
        } catch (IOException e) {
            throw AgentFailure.transientFailure("network", "Expected an answer to " + call + ", but: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw AgentFailure.transientFailure("interrupted", "Expected " + call + " to finish, but the worker was "
                    + "interrupted");
        }
    }

    private TaskResult answer(AgentEndpoint agent, BoundedHttp.Response response) throws AgentFailure {
        if (response.successful()) {
            return AgentCall.outcome(agent.name(), json, response.text());
        }
        String message = "Expected a 2xx answer from agent '" + agent.name() + "' at " + agent.url() + ", but got "
                + response.status() + (response.body().length == 0 ? "" : ": " + response.snippet());
        throw response.status() >= 500 ? AgentFailure.transientFailure("http_" + response.status(), message)
                : AgentFailure.permanent("http_" + response.status(), message);
    }

    /** The agent named in the node's config, registered in the tenant of the task's run. */
    private AgentEndpoint agent(Task task, JsonNode name) throws AgentFailure {
        if (!name.isString() || name.stringValue().isBlank()) {
            throw AgentFailure.permanent("invalid_config", "Expected config.agent to name a registered agent, but "
                    + "found " + (name.isMissingNode() ? "none" : name));
        }
        String tenant = tenants.requireOfRun(task.run());
        return registry.find(tenant, name.stringValue()).orElseThrow(() -> AgentFailure.permanent("unknown_agent",
                "Expected agent '" + name.stringValue() + "' in the agent registry of tenant '" + tenant
                        + "' (PUT /api/v1/agents/"
                        + name.stringValue() + "), but there is none"));
    }

    private HttpRequest request(Task task, AgentEndpoint agent, Duration timeout) {
        ObjectNode body = json.createObjectNode().put("task_id", task.token());
        body.set("input", task.input());
        HttpRequest.Builder builder = HttpRequest.newBuilder(agent.url()).timeout(timeout)
                .header("Content-Type", "application/json").header("Idempotency-Key", task.token())
                .header("User-Agent", "Tokenflow").header("traceparent", task.traceContext())
                .POST(HttpRequest.BodyPublishers.ofByteArray(
                        json.writeValueAsBytes(body)));
        agent.auth().headers().forEach(builder::setHeader);
        return builder.build();
    }

    private static Duration timeout(JsonNode seconds, AgentEndpoint agent) throws AgentFailure {
        if (seconds.isMissingNode() || seconds.isNull()) {
            return agent.timeout();
        }
        if (!seconds.isNumber() || seconds.doubleValue() <= 0) {
            throw AgentFailure.permanent("invalid_config", "Expected config.timeout_s to be a number of seconds > 0, "
                    + "but found " + seconds);
        }
        return Duration.ofMillis(Math.max(1, (long) (seconds.doubleValue() * 1000)));
    }

    private static AgentFailure afterCalls(AgentFailure last, int calls) {
        TaskResult.Failed failure = last.failure();
        String message = failure.message() + " (after " + calls + " calls)";
        return failure.kind() == FailureKind.TRANSIENT
                ? AgentFailure.transientFailure(failure.code(), message) : AgentFailure.permanent(failure.code(), message);
    }

    private static void pause(Duration delay) throws AgentFailure {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw AgentFailure.transientFailure("interrupted", "Expected to call the agent again, but the worker was "
                    + "interrupted");
        }
    }
}
