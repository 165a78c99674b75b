package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.Severity;

/**
 * A {@code wait_for_all} join is refused when a choice anywhere upstream can send tokens to some of its dependencies
 * and not the others (the run would wait forever), and accepted when every dependency comes whichever way each choice
 * goes.
 */
class JoinChecksTests {

    private static final String NOOP = "\"type\": \"function\", \"config\": {\"function\": \"noop\"}";

    @Test
    void refusesAJoinBehindABranchTwoHopsUp() {
        assertThat(errors("""
                {"name": "j", "nodes": [
                  {"id": "A", %1$s}, {"id": "S", %1$s},
                  {"id": "B", %1$s, "branch": {"type": "conditional", "rules": [{"name": "x",
                    "condition": {"type": "cel", "expression": "output.x == 1"}, "next_nodes": ["X"]}],
                    "default": ["Y"]}},
                  {"id": "X", %1$s}, {"id": "Y", %1$s}, {"id": "J", %1$s, "wait_for_all": true}],
                 "edges": [{"from": "A", "to": "B"}, {"from": "A", "to": "S"}, {"from": "X", "to": "J"},
                           {"from": "S", "to": "J"}]}""".formatted(NOOP)))
                .anySatisfy(diagnostic -> {
                    assertThat(diagnostic.code()).isEqualTo("join-may-hang");
                    assertThat(diagnostic.pointer()).isEqualTo("/nodes/5/wait_for_all");
                    assertThat(diagnostic.message()).contains("'B'", "'X' runs only on its path", "'S' runs either way");
                });
    }

    @Test
    void refusesAJoinOfTheArmsOfOneChoice() {
        assertThat(errors("""
                {"name": "j", "nodes": [
                  {"id": "A", %1$s, "branch": {"type": "conditional", "rules": [{"name": "p",
                    "condition": {"type": "cel", "expression": "output.p == 1"}, "next_nodes": ["P"]}],
                    "default": ["Q"]}},
                  {"id": "P", %1$s}, {"id": "Q", %1$s}, {"id": "J", %1$s, "wait_for_all": true}],
                 "edges": [{"from": "P", "to": "J"}, {"from": "Q", "to": "J"}]}""".formatted(NOOP)))
                .extracting(Diagnostic::code).contains("join-may-hang");
    }

    @Test
    void acceptsAJoinOfPathsTakenTogetherInsideOneArmAndPathsEveryArmReaches() {
        assertThat(errors("""
                {"name": "j", "nodes": [
                  {"id": "A", %1$s, "branch": {"type": "conditional", "rules": [{"name": "x",
                    "condition": {"type": "cel", "expression": "output.x == 1"}, "next_nodes": ["X"]}],
                    "default": ["Y"]}},
                  {"id": "X", %1$s}, {"id": "Y", %1$s}, {"id": "P", %1$s}, {"id": "Q", %1$s},
                  {"id": "J", %1$s, "wait_for_all": true}, {"id": "W", %1$s}, {"id": "S", %1$s},
                  {"id": "K", %1$s, "wait_for_all": true}],
                 "edges": [{"from": "X", "to": "P"}, {"from": "X", "to": "Q"}, {"from": "P", "to": "J"},
                           {"from": "Q", "to": "J"}, {"from": "J", "to": "W"}, {"from": "Y", "to": "W"},
                           {"from": "W", "to": "K"}, {"from": "S", "to": "K"}]}""".formatted(NOOP))).isEmpty();
        assertThat(Fixtures.compile("valid/fan-out-fan-in").diagnostics())
                .noneMatch(diagnostic -> diagnostic.code().equals("join-may-hang"));
    }

    private static java.util.List<Diagnostic> errors(String document) {
        return Fixtures.COMPILER.compile(Fixtures.JSON.readTree(document)).diagnostics().stream()
                .filter(diagnostic -> diagnostic.severity() == Severity.ERROR).toList();
    }
}
