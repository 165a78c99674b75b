package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.Severity;
import io.tokenflow.engine.ir.IrLimits;

/** A node's {@code limits}: hop and fan-out limits reach the IR, a deadline and an impossible fan-out are refused. */
class LimitsCompilerTests {

    @Test
    void compilesMaxHopsAndMaxFanOutIntoTheIr() {
        CompilationResult result = compile("""
                {"id": "a", "type": "function", "config": {"function": "noop"},
                 "limits": {"max_hops": 3, "max_fan_out": 2}}""", "{\"from\": \"a\", \"to\": \"b\"}");
        assertThat(result.errors()).isEmpty();
        assertThat(result.ir().node("a").limits()).isEqualTo(new IrLimits(3, 2));
        assertThat(result.ir().node("b").limits()).isNull();
    }

    @Test
    void refusesDeadlineSecondsAndPointsToTimeoutS() {
        CompilationResult result = compile("""
                {"id": "a", "type": "function", "config": {"function": "noop"},
                 "limits": {"deadline_s": 5, "max_hops": 3}}""", "{\"from\": \"a\", \"to\": \"b\"}");
        assertThat(result.errors()).singleElement().satisfies(error -> {
            assertThat(error.code()).isEqualTo("unsupported-setting");
            assertThat(error.pointer()).isEqualTo("/nodes/0/limits/deadline_s");
            assertThat(error.message()).contains("'a'", "timeout_s");
        });
    }

    @Test
    void refusesAFanOutLimitThatTheNodesEdgesAlreadyPass() {
        CompilationResult result = compile("""
                {"id": "a", "type": "function", "config": {"function": "noop"}, "limits": {"max_fan_out": 1}}""",
                "{\"from\": \"a\", \"to\": \"b\"}, {\"from\": \"a\", \"to\": \"c\"}");
        assertThat(result.errors()).singleElement().satisfies(error -> {
            assertThat(error.code()).isEqualTo("fan-out-over-limit");
            assertThat(error.pointer()).isEqualTo("/nodes/0/limits/max_fan_out");
            assertThat(error.message()).isEqualTo("Expected node 'a' to send at most 1 tokens in one step "
                    + "(limits.max_fan_out), but it sends 2 to [b, c]");
        });
    }

    @Test
    void refusesAFanOutLimitThatABranchRulePasses() {
        CompilationResult result = compile("""
                {"id": "a", "type": "function", "config": {"function": "noop"}, "limits": {"max_fan_out": 1},
                 "branch": {"rules": [{"condition": {"type": "cel", "expression": "true"},
                                       "next_nodes": ["b", "c"]}], "default": ["b"]}}""", "");
        assertThat(result.errors()).extracting(Diagnostic::code).containsExactly("fan-out-over-limit");
    }

    @Test
    void acceptsAFanOutLimitEveryStaticPathKeepsTo() {
        CompilationResult result = compile("""
                {"id": "a", "type": "function", "config": {"function": "noop"}, "limits": {"max_fan_out": 1},
                 "branch": {"rules": [{"condition": {"type": "cel", "expression": "true"}, "next_nodes": ["b"]}],
                            "default": ["c"]}}""", "");
        assertThat(result.diagnostics()).filteredOn(d -> d.severity() == Severity.ERROR).isEmpty();
        assertThat(result.ir().node("a").limits().maxFanOut()).isEqualTo(1);
    }

    /** A workflow of node {@code a} as given, then plain nodes b and c, with the given edges. */
    private static CompilationResult compile(String a, String edges) {
        return Fixtures.COMPILER.compile(Fixtures.JSON.readTree("""
                {"name": "limits", "nodes": [%s,
                  {"id": "b", "type": "function", "config": {"function": "noop"}},
                  {"id": "c", "type": "function", "config": {"function": "noop"}}],
                 "edges": [%s]}""".formatted(a, edges)));
    }
}
