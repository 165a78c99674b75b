package io.tokenflow.workers.function;

import static io.tokenflow.workers.TestTasks.failure;
import static io.tokenflow.workers.TestTasks.json;
import static io.tokenflow.workers.TestTasks.output;
import static io.tokenflow.workers.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenflow.workers.FailureKind;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.JsonNode;

class FunctionTaskHandlerTests {

    private final FunctionTaskHandler handler = new FunctionTaskHandler(builtIns());

    @Test
    void noopOutputsAnEmptyObject() {
        assertThat(output(run("{\"a\":1}", "{\"function\":\"noop\"}"))).isEqualTo(json("{}"));
    }

    @Test
    void echoOutputsItsInput() {
        assertThat(output(run("{\"a\":[1,2,{\"b\":null}]}", "{\"function\":\"echo\"}")))
                .isEqualTo(json("{\"a\":[1,2,{\"b\":null}]}"));
    }

    @Test
    void setMergesArgsIntoTheInputObject() {
        TaskResult result = run("{\"a\":1,\"b\":2}", "{\"function\":\"set\",\"args\":{\"b\":3,\"c\":{\"d\":true}}}");

        assertThat(output(result)).isEqualTo(json("{\"a\":1,\"b\":3,\"c\":{\"d\":true}}"));
    }

    @Test
    void setRefusesAnInputThatIsNoObject() {
        TaskResult.Failed failed = failure(run("[1]", "{\"function\":\"set\",\"args\":{\"b\":3}}"));

        assertThat(failed.kind()).isEqualTo(FailureKind.PERMANENT);
        assertThat(failed.message()).contains("Expected an object input");
    }

    @Test
    void sleepWaitsThenOutputsItsInput() {
        long start = System.nanoTime();

        TaskResult result = run("{\"a\":1}", "{\"function\":\"sleep\",\"args\":{\"ms\":50}}");

        assertThat(output(result)).isEqualTo(json("{\"a\":1}"));
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(50);
    }

    @Test
    void failIsPermanentByDefault() {
        TaskResult.Failed failed = failure(run("{}", "{\"function\":\"fail\",\"args\":{\"message\":\"boom\"}}"));

        assertThat(failed).isEqualTo(new TaskResult.Failed("boom", FailureKind.PERMANENT, "failed"));
    }

    @Test
    void failCanBeTransient() {
        TaskResult.Failed failed = failure(run("{}", "{\"function\":\"fail\",\"args\":{\"kind\":\"transient\"}}"));

        assertThat(failed.kind()).isEqualTo(FailureKind.TRANSIENT);
    }

    @Test
    void anUnknownFunctionFailsPermanentlyNamingTheKnownOnes() {
        TaskResult.Failed failed = failure(run("{}", "{\"function\":\"nope\"}"));

        assertThat(failed.kind()).isEqualTo(FailureKind.PERMANENT);
        assertThat(failed.code()).isEqualTo("unknown_function");
        assertThat(failed.message()).contains("[echo, fail, noop, set, sleep]").contains("\"nope\"");
    }

    @Test
    void callsAnAddedFunctionWithTheTokenAsIdempotencyKey() {
        List<WorkflowFunction> functions = builtIns();
        functions.add(function("whoami", call -> json("{\"token\":\"" + call.tokenId() + "\",\"node\":\""
                + call.nodeId() + "\",\"x\":" + call.args().path("x") + "}")));
        var task = task("function", "{}", "{\"function\":\"whoami\",\"args\":{\"x\":7}}");

        JsonNode output = output(new FunctionTaskHandler(functions).execute(task));

        assertThat(output).isEqualTo(json("{\"token\":\"" + task.token() + "\",\"node\":\"node\",\"x\":7}"));
    }

    @Test
    void ioErrorsOfAFunctionAreTransientAndOtherErrorsPermanent() {
        List<WorkflowFunction> functions = builtIns();
        functions.add(function("io", call -> {
            throw new IOException("disk gone");
        }));
        functions.add(function("bug", call -> {
            throw new IllegalArgumentException("bad");
        }));
        FunctionTaskHandler extended = new FunctionTaskHandler(functions);

        assertThat(failure(extended.execute(task("function", "{}", "{\"function\":\"io\"}"))).kind())
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(failure(extended.execute(task("function", "{}", "{\"function\":\"bug\"}"))).kind())
                .isEqualTo(FailureKind.PERMANENT);
    }

    @Test
    void refusesTwoFunctionsWithOneName() {
        List<WorkflowFunction> functions = builtIns();
        functions.add(function("echo", FunctionCall::input));

        assertThatThrownBy(() -> new FunctionTaskHandler(functions))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Expected workflow function names to be unique, but 'echo' is declared by both");
    }

    private TaskResult run(String input, String config) {
        return handler.execute(task("function", input, config));
    }

    static List<WorkflowFunction> builtIns() {
        return new ArrayList<>(List.of(new NoopFunction(), new EchoFunction(), new SetFunction(), new SleepFunction(),
                new FailFunction()));
    }

    interface Body {
        JsonNode apply(FunctionCall call) throws Exception;
    }

    static WorkflowFunction function(String name, Body body) {
        return new WorkflowFunction() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public JsonNode apply(FunctionCall call) throws Exception {
                return body.apply(call);
            }
        };
    }
}
