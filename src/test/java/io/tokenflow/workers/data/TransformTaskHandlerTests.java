package io.tokenflow.workers.data;

import static io.tokenflow.workers.TestTasks.failure;
import static io.tokenflow.workers.TestTasks.json;
import static io.tokenflow.workers.TestTasks.output;
import static io.tokenflow.workers.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.tokenflow.workers.FailureKind;
import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskResult;

class TransformTaskHandlerTests {

    private final TransformTaskHandler handler = new TransformTaskHandler(DataHandlers.CEL);

    @Test
    void buildsOneOutputFieldPerExpression() {
        Task task = task("transform", "{\"price\":10,\"qty\":3,\"tags\":[\"a\",\"b\"],\"name\":\"x\"}",
                "{\"fields\":{\"total\":\"input.price * input.qty\",\"first\":\"input.tags[0]\","
                        + "\"big\":\"input.price * input.qty > 20\",\"half\":\"double(input.price) / 4.0\","
                        + "\"who\":\"token\",\"copy\":\"{'n': input.name, 'l': input.tags.map(t, t + t)}\"}}");

        assertThat(output(handler.execute(task))).isEqualTo(json("{\"total\":30,\"first\":\"a\",\"big\":true,"
                + "\"half\":2.5,\"who\":\"" + task.token() + "\",\"copy\":{\"n\":\"x\",\"l\":[\"aa\",\"bb\"]}}"));
    }

    @Test
    void aFailingExpressionFailsPermanentlyNamingTheFieldAndExpression() {
        TaskResult.Failed failed = failure(handler.execute(task("transform", "{\"a\":1}",
                "{\"fields\":{\"ok\":\"input.a\",\"bad\":\"input.nope + 1\"}}")));

        assertThat(failed.kind()).isEqualTo(FailureKind.PERMANENT);
        assertThat(failed.code()).isEqualTo("expression_error");
        assertThat(failed.message()).contains("config.fields.bad").contains("'input.nope + 1'");
    }

    @Test
    void anExpressionThatDoesNotCompileFailsPermanently() {
        TaskResult.Failed failed = failure(handler.execute(task("transform", "{}", "{\"fields\":{\"x\":\"1 +\"}}")));

        assertThat(failed.kind()).isEqualTo(FailureKind.PERMANENT);
        assertThat(failed.message()).contains("config.fields.x").contains("valid CEL expression");
    }

    @Test
    void refusesAConfigWithoutFields() {
        assertThat(failure(handler.execute(task("transform", "{}", "{}"))).code()).isEqualTo("invalid_config");
    }
}
