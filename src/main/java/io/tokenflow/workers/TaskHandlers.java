package io.tokenflow.workers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.stereotype.Component;

/** Every {@link TaskHandler} bean, by the worker type it serves; two handlers for one type fail the start. */
@Component
public class TaskHandlers {

    /**
     * Worker types of the built-in node types no built-in worker serves: external workers only ({@code default}), or
     * the engine itself, which holds their tokens (timers, signal waits: {@code io.tokenflow.waits}).
     */
    public static final Set<String> SERVED_ELSEWHERE = Set.of("default", "wait", "signal", "workflow");

    private final Map<String, TaskHandler> byType = new LinkedHashMap<>();

    public TaskHandlers(List<TaskHandler> handlers) {
        for (TaskHandler handler : handlers) {
            TaskHandler previous = byType.putIfAbsent(handler.type(), handler);
            if (previous != null) {
                throw new IllegalStateException("Expected one task handler per worker type, but '" + handler.type()
                        + "' is served by both " + previous.getClass().getName() + " and "
                        + handler.getClass().getName());
            }
        }
    }

    public Optional<TaskHandler> find(String type) {
        return Optional.ofNullable(byType.get(type));
    }

    public Set<String> types() {
        return Set.copyOf(byType.keySet());
    }
}
