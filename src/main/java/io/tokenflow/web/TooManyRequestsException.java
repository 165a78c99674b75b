package io.tokenflow.web;

import java.time.Duration;
import java.util.Map;

/** A quota is used up (429); {@link #retryAfter()} says when trying again may succeed. */
public class TooManyRequestsException extends RuntimeException {

    private final Duration retryAfter;
    private final Map<String, Object> properties;

    public TooManyRequestsException(String message, Duration retryAfter, Map<String, Object> properties) {
        super(message);
        this.retryAfter = retryAfter;
        this.properties = Map.copyOf(properties);
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    public Map<String, Object> properties() {
        return properties;
    }
}
