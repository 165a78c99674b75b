package io.tokenflow.workers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class TaskHandlersTests {

    @Test
    void findsHandlersByType() {
        TaskHandlers handlers = new TaskHandlers(List.of(handler("a"), handler("b")));

        assertThat(handlers.types()).containsExactlyInAnyOrder("a", "b");
        assertThat(handlers.find("a")).isPresent();
        assertThat(handlers.find("c")).isEmpty();
    }

    @Test
    void refusesTwoHandlersForOneType() {
        assertThatThrownBy(() -> new TaskHandlers(List.of(handler("a"), handler("a"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Expected one task handler per worker type, but 'a' is served by both");
    }

    private static TaskHandler handler(String type) {
        return new TaskHandler() {
            @Override
            public String type() {
                return type;
            }

            @Override
            public TaskResult execute(Task task) {
                return TaskResult.completed(task.input());
            }
        };
    }
}
