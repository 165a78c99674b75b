package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.ir.IrCall;
import io.tokenflow.engine.ir.IrOnFailure;
import io.tokenflow.engine.ir.IrSignal;
import io.tokenflow.engine.ir.IrWait;

/**
 * Wait (timer), signal and workflow (call) nodes: their settings reach the IR; what does not apply to them is
 * refused.
 */
class HeldNodeCompilerTests {

    @Test
    void compilesATimerAndASignalWaitWithItsTimeoutPathIntoTheIr() {
        CompilationResult result = compile("""
                {"id": "a", "type": "wait", "wait": {"duration": "PT90S"}},
                {"id": "s", "type": "signal", "signal": {"name": "paid", "key": "${workflow.input.order}",
                 "timeout": "PT1H", "timeout_path": ["c"]}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).isEmpty();
        assertThat(result.ir().node("a").timer()).isEqualTo(new IrWait(90_000L, null));
        assertThat(result.ir().node("a").worker()).isEqualTo("wait");
        assertThat(result.ir().node("s").signal()).isEqualTo(new IrSignal("paid", "${workflow.input.order}",
                3_600_000L));
        assertThat(result.ir().node("s").onFailure()).isEqualTo(new IrOnFailure(IrOnFailure.PATH,
                java.util.List.of("c")));
        assertThat(result.ir().node("s").retry()).as("no retry policy, not even the workflow's").isNull();
        assertThat(result.ir().terminalNodes()).contains("b", "c");
    }

    @Test
    void refusesAWaitNodeWithoutItsSettingsAndTheSettingsOnAnotherType() {
        CompilationResult result = compile("""
                {"id": "a", "type": "wait"},
                {"id": "s", "type": "function", "config": {"function": "echo"}, "signal": {"name": "x", "key": "k"}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("wait-settings", "/nodes/0"),
                org.assertj.core.groups.Tuple.tuple("signal-settings", "/nodes/1/signal"));
        assertThat(result.errors()).extracting(Diagnostic::message).contains("Expected wait node 'a' to have wait "
                + "settings, e.g. \"wait\": {\"duration\": \"PT1H\"} or {\"until\": \"${workflow.input.remind_at}\"}, "
                + "but it has none");
    }

    @Test
    void refusesAnUntilThatIsNoInstantAndAReferenceToAnUnknownNode() {
        CompilationResult result = compile("""
                {"id": "a", "type": "wait", "wait": {"until": "next tuesday"}},
                {"id": "s", "type": "signal", "signal": {"name": "x", "key": "${nodes.nope.output.id}"}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("wait-settings", "/nodes/0/wait/until"),
                org.assertj.core.groups.Tuple.tuple("unknown-node", "/nodes/1/signal/key"));
    }

    @Test
    void refusesWhatATaskHasButAHeldNodeCannotUse() {
        CompilationResult result = compile("""
                {"id": "a", "type": "wait", "wait": {"duration": 5}, "retry": {"max_attempts": 3},
                 "on_failure": {"action": "fail_run"}},
                {"id": "s", "type": "signal", "signal": {"name": "x", "key": "k"}, "timeout_s": 30,
                 "on_failure": {"action": "fail_run"}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("unsupported-setting", "/nodes/0/retry"),
                org.assertj.core.groups.Tuple.tuple("unsupported-setting", "/nodes/0/on_failure"),
                org.assertj.core.groups.Tuple.tuple("unsupported-setting", "/nodes/1/timeout_s"),
                org.assertj.core.groups.Tuple.tuple("signal-settings", "/nodes/1/on_failure"));
    }

    @Test
    void refusesATimeoutPathToAnUnknownNodeAtItsPointer() {
        CompilationResult result = compile("""
                {"id": "a", "type": "wait", "wait": {"duration": 5}},
                {"id": "s", "type": "signal", "signal": {"name": "x", "key": "k", "timeout_path": ["nowhere"]}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer)
                .contains(org.assertj.core.groups.Tuple.tuple("unknown-node", "/nodes/1/signal/timeout_path/0"));
    }

    @Test
    void compilesAWorkflowNodeIntoAHeldCallWithItsErrorPath() {
        CompilationResult result = compile("""
                {"id": "a", "type": "workflow", "workflow": {"name": "billing", "version": 3},
                 "input": {"order": "${workflow.input.order}"}},
                {"id": "s", "type": "workflow", "workflow": {"id": "0b6f6f0e-8d3c-4f8e-9d43-3c1f4f4c2a11",
                 "tag": "prod"}, "on_failure": {"action": "path", "next_nodes": ["c"]}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).isEmpty();
        assertThat(result.ir().node("a").call()).isEqualTo(new IrCall("billing", 3, null));
        assertThat(result.ir().node("a").held()).isTrue();
        assertThat(result.ir().node("a").retry()).as("no retry policy, not even the workflow's").isNull();
        assertThat(result.ir().node("s").call().pin()).isEqualTo("0b6f6f0e-8d3c-4f8e-9d43-3c1f4f4c2a11@prod");
        assertThat(result.ir().node("s").onFailure()).isEqualTo(new IrOnFailure(IrOnFailure.PATH, List.of("c")));
    }

    @Test
    void refusesWorkflowSettingsWithBothOrNeitherOfNameAndIdAndOfVersionAndTag() {
        CompilationResult result = compile("""
                {"id": "a", "type": "workflow", "workflow": {"name": "billing",
                 "id": "0b6f6f0e-8d3c-4f8e-9d43-3c1f4f4c2a11", "version": 1, "tag": "prod"}},
                {"id": "s", "type": "workflow", "workflow": {}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer, Diagnostic::message)
                .containsExactlyInAnyOrder(
                        tuple("workflow-settings", "/nodes/0/workflow", "Expected the called workflow by \"name\" or "
                                + "by \"id\" (one of them), but found both"),
                        tuple("workflow-settings", "/nodes/0/workflow", "Expected the called workflow pinned by "
                                + "\"version\" or by \"tag\" (one of them), but found both"),
                        tuple("workflow-settings", "/nodes/1/workflow", "Expected the called workflow by \"name\" or "
                                + "by \"id\" (one of them), but found neither"),
                        tuple("workflow-settings", "/nodes/1/workflow", "Expected the called workflow pinned by "
                                + "\"version\" or by \"tag\" (one of them), but found neither"));
    }

    @Test
    void refusesAWorkflowNodeWithoutItsSettingsAndTheSettingsOnAnotherType() {
        CompilationResult result = compile("""
                {"id": "a", "type": "workflow"},
                {"id": "s", "type": "function", "config": {"function": "echo"},
                 "workflow": {"name": "billing", "version": 1}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer).containsExactlyInAnyOrder(
                tuple("workflow-settings", "/nodes/0"), tuple("workflow-settings", "/nodes/1/workflow"));
        assertThat(result.errors()).extracting(Diagnostic::message).contains("Expected workflow node 'a' to have "
                + "workflow settings, e.g. \"workflow\": {\"name\": \"billing\", \"version\": 3}, but it has none",
                "Expected workflow settings only on workflow nodes, but 's' is a 'function' node");
    }

    @Test
    void refusesRetryATimeLimitAndTheDeadLetterQueueOnAWorkflowNode() {
        CompilationResult result = compile("""
                {"id": "a", "type": "workflow", "workflow": {"name": "billing", "version": 1},
                 "retry": {"max_attempts": 3}, "timeout_s": 30},
                {"id": "s", "type": "workflow", "workflow": {"name": "billing", "tag": "prod"},
                 "on_failure": {"action": "dlq"}}""",
                "{\"from\": \"a\", \"to\": \"s\"}, {\"from\": \"s\", \"to\": \"b\"}");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer).containsExactlyInAnyOrder(
                tuple("unsupported-setting", "/nodes/0/retry"), tuple("unsupported-setting", "/nodes/0/timeout_s"),
                tuple("unsupported-setting", "/nodes/1/on_failure/action"));
    }

    /** A workflow of the given nodes, then plain nodes b and c, with the given edges. */
    private static CompilationResult compile(String nodes, String edges) {
        return Fixtures.COMPILER.compile(Fixtures.JSON.readTree("""
                {"name": "held", "inputs": {"type": "object"}, "nodes": [%s,
                  {"id": "b", "type": "function", "config": {"function": "noop"}},
                  {"id": "c", "type": "function", "config": {"function": "noop"}}],
                 "edges": [%s]}""".formatted(nodes, edges)));
    }
}
