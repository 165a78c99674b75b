package io.tokenflow.coordinator;

import java.util.UUID;

import tools.jackson.databind.JsonNode;

import io.tokenflow.redis.RedisKeys;

/**
 * What the coordinator needs to route a run's completions: its workflow plan (at its revision), its input, and its
 * Redis keys (named once per run, not on every step).
 */
public record RunPlan(UUID runId, int shard, String revision, JsonNode input, WorkflowPlan workflow,
                      RedisKeys.RunKeys keys) {
}
