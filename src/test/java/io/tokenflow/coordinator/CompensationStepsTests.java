package io.tokenflow.coordinator;

import static io.tokenflow.engine.replay.EventScript.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.engine.compiler.WorkflowCompiler;
import io.tokenflow.engine.conditions.ConditionEngine;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.types.BuiltInNodeTypes;
import tools.jackson.databind.json.JsonMapper;

class CompensationStepsTests {

    private static final UUID WORKFLOW = UUID.fromString("00000000-0000-0000-0000-00000000000c");

    private static final WorkflowIr IR = compile("""
            {"name": "saga", "nodes": [
              {"id": "A", "type": "function", "config": {"function": "echo"}, "compensate": {"type": "function",
               "config": {"function": "echo"}}},
              {"id": "B", "type": "function", "config": {"function": "echo"}},
              {"id": "C", "type": "function", "config": {"function": "echo"}, "compensate": {"type": "function",
               "config": {"function": "echo"}}}],
             "edges": [{"from": "A", "to": "B"}, {"from": "B", "to": "C"}]}""");

    @Test
    void undoesEachCompletedExecutionWithACompensatorLatestFirstAndEachLoopIterationOnce() {
        List<RunEvent> events = events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{\"a\":1}").emitted("A", "B", "tB", "tA").then()
                .completed("B", "tB", "{}").emitted("B", "C", "tC", "tB").then()
                .completed("C", "tC", "{\"c\":1}").then()
                .iteration(1).completed("A", "tA1", "{\"a\":2}").iteration(0).then()
                .failed("B", "tB1", "boom").runFailed("B", "Node B failed", 0).parsed();

        assertThat(Compensations.steps(events, IR)).extracting(Compensations.Step::place, Compensations.Step::token)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("A#1", "tA1"),
                        org.assertj.core.groups.Tuple.tuple("C#0", "tC"),
                        org.assertj.core.groups.Tuple.tuple("A#0", "tA"));
    }

    @Test
    void leavesOutWhatACompensatorUndidAlready() {
        List<RunEvent> events = events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{}").emitted("A", "B", "tB", "tA").then()
                .completed("B", "tB", "{}").emitted("B", "C", "tC", "tB").then()
                .completed("C", "tC", "{}").runCompleted().then()
                .emitted("C", "C~compensate", "kC", "tC").then().completed("C~compensate", "kC", "{}").parsed();

        assertThat(Compensations.steps(events, IR)).extracting(Compensations.Step::place).containsExactly("A#0");
    }

    private static WorkflowIr compile(String document) {
        CompilationResult result = new WorkflowCompiler(BuiltInNodeTypes.get(), ConditionEngine.withDefaults())
                .compile(JsonMapper.builder().build().readTree(document));
        assertThat(result.errors()).isEmpty();
        return result.ir();
    }
}
