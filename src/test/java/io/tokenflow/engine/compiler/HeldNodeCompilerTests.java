package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.ir.IrOnFailure;
import io.tokenflow.engine.ir.IrSignal;
import io.tokenflow.engine.ir.IrWait;

/** Wait (timer) and signal nodes: their settings reach the IR; what does not apply to them is refused. */
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

    /** A workflow of the given nodes, then plain nodes b and c, with the given edges. */
    private static CompilationResult compile(String nodes, String edges) {
        return Fixtures.COMPILER.compile(Fixtures.JSON.readTree("""
                {"name": "held", "inputs": {"type": "object"}, "nodes": [%s,
                  {"id": "b", "type": "function", "config": {"function": "noop"}},
                  {"id": "c", "type": "function", "config": {"function": "noop"}}],
                 "edges": [%s]}""".formatted(nodes, edges)));
    }
}
