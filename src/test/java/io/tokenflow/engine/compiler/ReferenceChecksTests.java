package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.Severity;

/** References are resolved in a node's input only: in config, where nothing would resolve them, they are refused. */
class ReferenceChecksTests {

    @Test
    void refusesAReferenceInConfigAtItsPointerAndAcceptsItInTheInput() {
        var diagnostics = Fixtures.COMPILER.compile(Fixtures.JSON.readTree("""
                {"name": "refs", "inputs": {"type": "object", "properties": {"url": {"type": "string"}}},
                 "nodes": [{"id": "call", "type": "http", "input": {"url": "${workflow.input.url}"},
                            "config": {"method": "GET", "url": "${workflow.input.url}",
                                       "headers": {"X-Trace": "{{input.url}}"}}}]}""")).diagnostics();
        assertThat(diagnostics).filteredOn(diagnostic -> diagnostic.severity() == Severity.ERROR)
                .extracting(Diagnostic::code, Diagnostic::pointer)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("config-reference", "/nodes/0/config/url"));
    }
}
