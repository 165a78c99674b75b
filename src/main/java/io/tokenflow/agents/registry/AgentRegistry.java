package io.tokenflow.agents.registry;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Registers, lists and looks up external agents. A registration is {@code {"url", "auth", "timeoutMs",
 * "retryPolicy"}}; registering a name again replaces it whole. Agents belong to the tenant that registered them (names
 * are unique per tenant): the API works in the request's tenant, and the {@code http_agent} worker looks an agent up
 * in its run's tenant, so a workflow never calls, nor a person sees, another tenant's agent and its credentials.
 */
@Service
public class AgentRegistry {

    private static final String NAME = "[A-Za-z][A-Za-z0-9_.-]{0,62}";
    private static final int DEFAULT_TIMEOUT_MS = 30_000;
    private static final int LONGEST_TIMEOUT_MS = 600_000;

    private final RegisteredAgentRepository agents;
    private final JsonMapper json;
    private final Clock clock;

    AgentRegistry(RegisteredAgentRepository agents, JsonMapper json, Clock clock) {
        this.agents = agents;
        this.json = json;
        this.clock = clock;
    }

    /** The agent the {@code http_agent} worker calls, when the tenant registered one under that name. */
    @Transactional(readOnly = true)
    public Optional<AgentEndpoint> find(String tenant, String name) {
        return agents.findById(new RegisteredAgent.Key(tenant, name)).map(agent -> new AgentEndpoint(agent.name(),
                URI.create(agent.url()), AgentAuth.parse(json.readTree(agent.auth())),
                Duration.ofMillis(agent.timeoutMs()),
                RetryPolicy.parse(json.readTree(agent.retryPolicy()))));
    }

    @Transactional(readOnly = true)
    List<AgentView> list() {
        String tenant = CurrentTenant.orNull();
        return (tenant == null ? agents.findAllByOrderByTenantIdAscNameAsc() : agents.findByTenantIdOrderByName(tenant))
                .stream().map(this::view).toList();
    }

    @Transactional(readOnly = true)
    AgentView get(String name) {
        return agents.findById(key(name)).map(this::view).orElseThrow(() -> notFound(name));
    }

    @Transactional
    AgentView register(String name, String body) {
        if (!name.matches(NAME)) {
            throw new BadRequestException("Expected an agent name of letters, digits, '_', '.' and '-' starting with a "
                    + "letter (at most 63), but found '" + name + "'", "path:name");
        }
        JsonNode request = parse(body);
        String url = url(request.path("url"));
        AgentAuth auth = AgentAuth.parse(request.path("auth"));
        int timeoutMs = timeoutMs(request.path("timeoutMs"));
        RetryPolicy retry = RetryPolicy.parse(request.path("retryPolicy"));
        var now = clock.instant();
        RegisteredAgent agent = agents.findById(key(name)).orElseGet(() -> new RegisteredAgent(
                CurrentTenant.forNewRows(), name, now));
        agent.define(url, json.writeValueAsString(auth.stored()), timeoutMs, json.writeValueAsString(retry.toJson()),
                now);
        return view(agents.save(agent));
    }

    @Transactional
    void remove(String name) {
        agents.delete(agents.findById(key(name)).orElseThrow(() -> notFound(name)));
    }

    /** The key of the agent {@code name} in the tenant the request acts in. */
    private static RegisteredAgent.Key key(String name) {
        return new RegisteredAgent.Key(CurrentTenant.forNewRows(), name);
    }

    private AgentView view(RegisteredAgent agent) {
        return new AgentView(agent.name(), agent.url(), AgentAuth.parse(json.readTree(agent.auth())).redacted(),
                agent.timeoutMs(), RetryPolicy.parse(json.readTree(agent.retryPolicy())).toJson(), agent.createdAt(),
                agent.updatedAt());
    }

    private JsonNode parse(String body) {
        return RequestJson.object(body, java.util.Set.of("url", "auth", "timeoutMs", "retryPolicy"));
    }

    private static String url(JsonNode url) {
        if (!url.isString() || url.stringValue().isBlank()) {
            throw new BadRequestException("Expected url to be the agent's http or https URL, but found "
                    + (url.isMissingNode() ? "none" : url), "/url");
        }
        try {
            URI uri = new URI(url.stringValue().strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return uri.toString();
            }
        } catch (URISyntaxException e) {
            throw new BadRequestException("Expected url to be a URL, but: " + e.getMessage(), "/url");
        }
        throw new BadRequestException("Expected url to be an http or https URL with a host, but found " + url, "/url");
    }

    private static int timeoutMs(JsonNode timeout) {
        if (timeout.isMissingNode() || timeout.isNull()) {
            return DEFAULT_TIMEOUT_MS;
        }
        if (!timeout.isIntegralNumber() || timeout.longValue() < 1 || timeout.longValue() > LONGEST_TIMEOUT_MS) {
            throw new BadRequestException("Expected timeoutMs to be a whole number of milliseconds from 1 to "
                    + LONGEST_TIMEOUT_MS + ", but found " + timeout, "/timeoutMs");
        }
        return timeout.intValue();
    }

    private static NotFoundException notFound(String name) {
        return new NotFoundException("Expected an agent named '" + name + "' in the registry, but there is none");
    }
}
