package io.tokenflow.agents.registry;

import java.time.Instant;

import tools.jackson.databind.JsonNode;

/** An external agent as the API shows it: auth without its secret. */
record AgentView(String name, String url, JsonNode auth, int timeoutMs, JsonNode retryPolicy, Instant createdAt,
                 Instant updatedAt) {
}
