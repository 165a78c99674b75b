package io.tokenflow.coordinator;

import java.util.UUID;

import tools.jackson.databind.JsonNode;

/** What the coordinator needs to route a run's completions: its workflow plan (at its revision) and its input. */
public record RunPlan(UUID runId, int shard, String revision, JsonNode input, WorkflowPlan workflow) {

    public RedisKeys.RunKeys keys(RedisKeys redisKeys) {
        return redisKeys.run(runId, shard);
    }
}
