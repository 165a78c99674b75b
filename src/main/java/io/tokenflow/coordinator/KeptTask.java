package io.tokenflow.coordinator;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.tokenflow.redis.RedisConnections;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A token in flight whose task is kept (its node retries or parks in the dead-letter queue): where the token is and
 * the task's stream fields as they were dispatched, with the attempt they carry now.
 *
 * @param place  the token's place ({@code node} or {@code node#iteration})
 * @param fields the task's fields by name
 */
record KeptTask(String place, Map<String, String> fields) {

    /** The kept task of a token, or empty when the token is not in flight or its task is not kept. */
    static Optional<KeptTask> of(RedisConnections redis, JsonMapper json, RunPlan plan, String token) {
        String place = redis.commands().hget(plan.keys().tokens(), token);
        String kept = place == null ? null : redis.commands().hget(plan.keys().retries(), token);
        if (kept == null) {
            return Optional.empty();
        }
        JsonNode array = json.readTree(kept);
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < array.size(); i += 2) {
            fields.put(array.get(i).asString(), array.get(i + 1).asString());
        }
        return Optional.of(new KeptTask(place, fields));
    }

    int iteration() {
        return TokenPlaces.iterationOf(place);
    }

    int attempt() {
        return Integer.parseInt(fields.getOrDefault("attempt", "1"));
    }
}
