package io.tokenflow.agents.registry;

import java.net.URI;
import java.time.Duration;

/** A registered external agent, as the {@code http_agent} worker calls it. */
public record AgentEndpoint(String name, URI url, AgentAuth auth, Duration timeout, RetryPolicy retry) {
}
