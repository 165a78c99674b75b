package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.dsl.Diagnostic;
import tools.jackson.databind.node.ObjectNode;

/** Invalid fixtures produce every expected diagnostic at once, each at its node and JSON pointer, and no IR. */
class InvalidWorkflowTests {

    private static CompilationResult failing(String fixture) {
        CompilationResult result = Fixtures.compile("invalid/" + fixture);
        assertThat(result.succeeded()).as("%s compiles", fixture).isFalse();
        assertThat(result.ir()).isNull();
        return result;
    }

    @Test
    void rejectsDuplicateIds() {
        assertThat(failing("duplicate-id").errors())
                .extracting(Diagnostic::code, Diagnostic::nodeId, Diagnostic::pointer)
                .containsExactly(tuple("duplicate-id", "A", "/nodes/1/id"));
    }

    @Test
    void rejectsEdgeToUnknownNode() {
        Diagnostic error = failing("edge-to-unknown-node").errors().get(0);
        assertThat(error.code()).isEqualTo("unknown-node");
        assertThat(error.nodeId()).isEqualTo("B");
        assertThat(error.pointer()).isEqualTo("/edges/1/to");
        assertThat(error.message()).contains("no node 'nowhere'");
    }

    @Test
    void rejectsUnreachableNodes() {
        assertThat(failing("unreachable-node").errors())
                .extracting(Diagnostic::code, Diagnostic::nodeId, Diagnostic::pointer)
                .contains(tuple("unreachable", "C", "/nodes/2"), tuple("unreachable", "D", "/nodes/3"),
                        tuple("cycle", "C", "/nodes/2"));
    }

    @Test
    void rejectsCycleWithoutLoopConfig() {
        Diagnostic error = failing("cycle-without-loop").errors().get(0);
        assertThat(error.code()).isEqualTo("cycle");
        assertThat(error.nodeId()).isEqualTo("a");
        assertThat(error.message()).contains("a → b → a").contains("loop_back_to 'a'");
    }

    @Test
    void rejectsWorkflowWithoutTerminalNode() {
        assertThat(failing("no-terminal").errors()).extracting(Diagnostic::code).contains("no-terminal", "cycle");
    }

    @Test
    void rejectsUnknownTypeListingTheKnownOnes() {
        Diagnostic error = failing("unknown-type").errors().get(0);
        assertThat(error.pointer()).isEqualTo("/nodes/1/type");
        assertThat(error.message()).contains("'teleport'").contains("function").contains("human");
    }

    @Test
    void rejectsBranchAndLoopTargetsThatDoNotExist() {
        assertThat(failing("branch-and-loop-targets-missing").errors())
                .extracting(Diagnostic::code, Diagnostic::nodeId, Diagnostic::pointer)
                .containsExactly(
                        tuple("unknown-node", "A", "/nodes/0/branch/rules/0/next_nodes/1"),
                        tuple("unknown-node", "A", "/nodes/0/branch/default/0"),
                        tuple("unknown-node", "B", "/nodes/1/loop/loop_back_to"),
                        tuple("unknown-node", "B", "/nodes/1/loop/timeout_path/0"));
    }

    @Test
    void rejectsReferencesToUnknownNodesAndSuggestsTheRightSyntax() {
        CompilationResult result = failing("bad-references");
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer).containsExactly(
                tuple("unknown-node", "/nodes/1/input/x"), tuple("invalid-reference", "/nodes/1/input/y"));
        assertThat(result.errors().get(1).message()).contains("write ${nodes.A.output.value}");
    }

    @Test
    void reportsEverySchemaViolationWithItsPointer() {
        CompilationResult result = failing("schema-violations");
        assertThat(result.errors()).extracting(Diagnostic::code).containsOnly("schema");
        assertThat(result.errors()).extracting(Diagnostic::nodeId, Diagnostic::pointer).containsExactlyInAnyOrder(
                tuple(null, "/name"), tuple(null, "/nodes/0/id"), tuple("B", "/nodes/1/colour"),
                tuple("C", "/nodes/2/wait_for_all"), tuple(null, "/edges/0/to"));
        assertThat(result.errors()).filteredOn(d -> d.pointer().equals("/nodes/2/wait_for_all"))
                .extracting(Diagnostic::message).containsExactly(
                        "Expected \"/nodes/2/wait_for_all\" to be a boolean, but found string \"yes\"");
    }

    @Test
    void returnsAllProblemsAtOnce() {
        assertThat(failing("many-problems").errors())
                .extracting(Diagnostic::code, Diagnostic::nodeId, Diagnostic::pointer)
                .containsExactlyInAnyOrder(
                        tuple("invalid-config", "B", "/nodes/1/config/url"),
                        tuple("duplicate-id", "A", "/nodes/3/id"),
                        tuple("unknown-node", "C", "/edges/2/to"),
                        tuple("human-settings", "C", "/nodes/2"));
    }

    @Test
    void reportsPlanProblemsAtThePlanPointers() {
        assertThat(failing("bad-plan.plan").errors())
                .extracting(Diagnostic::nodeId, Diagnostic::pointer)
                .containsExactly(tuple(null, "/start_step"), tuple("step-1", "/steps/step-1/next_step"),
                        tuple("step-2", "/steps/step-2/agent_name"));
    }

    @Test
    void refusesDocumentsThatAreNotObjects() {
        CompilationResult result = Fixtures.COMPILER.compile(Fixtures.JSON.readTree("[1, 2]"));
        assertThat(result.errors()).extracting(Diagnostic::pointer).containsExactly("");
    }

    @Test
    void warnsButCompilesWhenAFanInHasNoJoin() {
        ObjectNode workflow = (ObjectNode) Fixtures.load("valid/fan-out-fan-in");
        ((ObjectNode) workflow.get("nodes").get(3)).remove("wait_for_all");
        CompilationResult result = Fixtures.COMPILER.compile(workflow);
        assertThat(result.succeeded()).isTrue();
        assertThat(result.warnings()).extracting(Diagnostic::code, Diagnostic::nodeId)
                .containsExactly(tuple("fan-in-without-join", "D"));
    }

    @Test
    void rejectsPlainEdgeFromBranchNodeThatIsOnNoBranchPath() {
        ObjectNode workflow = (ObjectNode) Fixtures.load("valid/lead-scoring");
        workflow.withArray("edges").addObject().put("from", "score_customer").put("to", "enrich_data");
        CompilationResult result = Fixtures.COMPILER.compile(workflow);
        assertThat(result.errors()).extracting(Diagnostic::code).contains("unrouted-edge");
    }

    @Test
    void rejectsLoopBackToANodeThatDoesNotLeadToTheLoop() {
        ObjectNode workflow = (ObjectNode) Fixtures.load("valid/payment-retry");
        ((ObjectNode) workflow.get("nodes").get(1).get("loop")).put("loop_back_to", "manual_review");
        CompilationResult result = Fixtures.COMPILER.compile(workflow);
        assertThat(result.errors()).extracting(Diagnostic::code, Diagnostic::pointer)
                .contains(tuple("loop-target", "/nodes/1/loop/loop_back_to"));
    }

    @Test
    void reportsEveryConditionProblemAtItsNodeAndPointer() {
        assertThat(failing("bad-conditions").errors())
                .extracting(Diagnostic::code, Diagnostic::nodeId, Diagnostic::pointer)
                .containsExactlyInAnyOrder(
                        tuple("condition", "score", "/nodes/1/branch/rules/0/condition/expression"),
                        tuple("unknown-node", "score", "/nodes/1/branch/rules/1/condition/expression"),
                        tuple("condition", "score", "/nodes/1/branch/rules/2/condition/query"),
                        tuple("condition", "score", "/nodes/1/loop/condition/schema/type"),
                        tuple("condition", "high", "/edges/1/condition"));
    }
}
