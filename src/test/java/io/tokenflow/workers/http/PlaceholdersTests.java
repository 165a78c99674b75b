package io.tokenflow.workers.http;

import static io.tokenflow.workers.TestTasks.json;
import static io.tokenflow.workers.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import io.tokenflow.workers.Task;

class PlaceholdersTests {

    private final Task task = task("http", "{\"user\":{\"id\":42,\"name\":\"Ada L\"},\"tags\":[\"x\",\"y\"],"
            + "\"none\":null}", "{}");
    private final Placeholders placeholders = new Placeholders(task);

    @Test
    void interpolatesValuesAsText() throws HttpTaskException {
        assertThat(placeholders.interpolate("id={{input.user.id}} name={{ input.user.name }} tag={{input.tags[1]}}"
                + " first={{input.tags.0}} none={{input.none}} token={{token}}", "t", UnaryOperator.identity()))
                .isEqualTo("id=42 name=Ada L tag=y first=x none= token=" + task.token());
    }

    @Test
    void leavesCompilerReferencesAlone() throws HttpTaskException {
        assertThat(placeholders.interpolate("${nodes.a.output.x}", "t", UnaryOperator.identity()))
                .isEqualTo("${nodes.a.output.x}");
    }

    @Test
    void aWholePlaceholderInTheBodyBecomesTheValueItself() throws HttpTaskException {
        assertThat(placeholders.expand(json("{\"u\":\"{{input.user}}\",\"id\":\"{{input.user.id}}\","
                + "\"text\":\"user {{input.user.id}}\",\"list\":[\"{{input.tags}}\",1]}"), "config.body"))
                .isEqualTo(json("{\"u\":{\"id\":42,\"name\":\"Ada L\"},\"id\":42,\"text\":\"user 42\","
                        + "\"list\":[[\"x\",\"y\"],1]}"));
    }

    @Test
    void aPlaceholderNamingNothingIsAnError() {
        assertThatThrownBy(() -> placeholders.interpolate("{{input.user.email}}", "config.url",
                UnaryOperator.identity())).isInstanceOf(HttpTaskException.class)
                .hasMessageContaining("Expected {{input.user.email}} in config.url to name a value");
    }
}
