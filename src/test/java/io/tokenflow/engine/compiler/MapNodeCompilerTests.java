package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.ir.IrMap;

/** A node's {@code map}: it reaches the IR with its defaults; what cannot work with it is refused at its pointer. */
class MapNodeCompilerTests {

    @Test
    void compilesAMapWithItsDefaultsAndSendsTheNodesTokenToTheEngine() {
        CompilationResult result = compile("""
                {"id": "enrich", "type": "http", "config": {"url": "https://crm.example/{{input.id}}"},
                 "map": {"items": "${nodes.fetch.output.customers}"},
                 "retry": {"max_attempts": 3}, "timeout_s": 5}""");
        assertThat(result.errors()).isEmpty();
        assertThat(result.ir().node("enrich").map())
                .isEqualTo(new IrMap("${nodes.fetch.output.customers}", 10, 10_000, "http"));
        assertThat(result.ir().node("enrich").worker()).isEqualTo("map");
        assertThat(result.ir().node("enrich").taskWorker()).isEqualTo("http");
        assertThat(result.ir().node("enrich").taskKind()).as("the map's own token: plain").isEqualTo("task");
        assertThat(result.ir().node("enrich").workTaskKind()).as("its elements: kept, timed").isEqualTo("rtask:5000");
        assertThat(result.ir().node("enrich").references()).containsExactly("fetch");
    }

    @Test
    void refusesAMapOnANodeNoWorkerRunsItemsThatAreNoReferenceAnInputMappingAndTheDeadLetterQueue() {
        CompilationResult result = compile("""
                {"id": "enrich", "type": "function", "config": {"function": "echo"},
                 "map": {"items": "customers"}, "input": {"x": 1}, "on_failure": {"action": "dlq"}},
                {"id": "ask", "type": "human", "human": {"approvers": ["ann"]},
                 "map": {"items": "${workflow.input.list}"}},
                {"id": "bill", "type": "workflow", "workflow": {"name": "billing", "version": 1},
                 "map": {"items": "${workflow.input.list}"}}""");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer).containsExactlyInAnyOrder(
                tuple("map-settings", "/nodes/1/map/items"), tuple("map-settings", "/nodes/1/input"),
                tuple("unsupported-setting", "/nodes/1/on_failure/action"), tuple("map-settings", "/nodes/2/map"),
                tuple("map-settings", "/nodes/3/map"));
    }

    /** A workflow of {@code fetch} (giving customers) then the given nodes after it. */
    private static CompilationResult compile(String nodes) {
        return Fixtures.COMPILER.compile(Fixtures.JSON.readTree("""
                {"name": "mapped", "inputs": {"type": "object"}, "nodes": [
                  {"id": "fetch", "type": "function", "config": {"function": "echo"}}, %s],
                 "edges": [{"from": "fetch", "to": "enrich"}]}""".formatted(nodes)));
    }
}
