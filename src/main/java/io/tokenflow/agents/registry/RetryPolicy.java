package io.tokenflow.agents.registry;

import java.time.Duration;

import io.tokenflow.web.BadRequestException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * How often and how patiently an external agent is called again after a transient failure (5xx, time-out, network
 * error): the n-th retry waits {@code min(initialDelay * multiplier^(n-1), maxDelay)}, jittered (see the bridge).
 *
 * @param maxRetries calls after the first one (0: no retry)
 */
public record RetryPolicy(int maxRetries, Duration initialDelay, Duration maxDelay, double multiplier) {

    public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofMillis(500), Duration.ofSeconds(10), 2.0);

    /** The policy in a request ({@code retryPolicy}); members left out keep their defaults. */
    static RetryPolicy parse(JsonNode policy) {
        if (policy.isMissingNode() || policy.isNull()) {
            return DEFAULT;
        }
        if (!policy.isObject()) {
            throw new BadRequestException("Expected retryPolicy to be an object, but found " + policy, "/retryPolicy");
        }
        int retries = (int) number(policy, "maxRetries", DEFAULT.maxRetries, 0, 10);
        long initial = number(policy, "initialDelayMs", DEFAULT.initialDelay.toMillis(), 0, 60_000);
        long max = number(policy, "maxDelayMs", Math.max(initial, DEFAULT.maxDelay.toMillis()), initial, 300_000);
        JsonNode multiplier = policy.path("backoffMultiplier");
        if (!multiplier.isMissingNode() && (!multiplier.isNumber() || multiplier.doubleValue() < 1
                || multiplier.doubleValue() > 10)) {
            throw new BadRequestException("Expected backoffMultiplier to be a number from 1 to 10, but found "
                    + multiplier, "/retryPolicy/backoffMultiplier");
        }
        return new RetryPolicy(retries, Duration.ofMillis(initial), Duration.ofMillis(max),
                multiplier.isMissingNode() ? DEFAULT.multiplier : multiplier.doubleValue());
    }

    /** The policy as stored and shown: {@code {"maxRetries", "initialDelayMs", "maxDelayMs", "backoffMultiplier"}}. */
    ObjectNode toJson() {
        return JsonNodeFactory.instance.objectNode().put("maxRetries", maxRetries)
                .put("initialDelayMs", initialDelay.toMillis()).put("maxDelayMs", maxDelay.toMillis())
                .put("backoffMultiplier", multiplier);
    }

    private static long number(JsonNode policy, String member, long fallback, long min, long max) {
        JsonNode value = policy.path(member);
        if (value.isMissingNode() || value.isNull()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || value.longValue() < min || value.longValue() > max) {
            throw new BadRequestException("Expected " + member + " to be a whole number from " + min + " to " + max
                    + ", but found " + value, "/retryPolicy/" + member);
        }
        return value.longValue();
    }
}
