package io.tokenflow.engine.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.types.NodeKind;

/** The seed examples compile to the IR the seeds describe. */
class WorkflowCompilerTests {

    private static WorkflowIr compiled(String fixture) {
        CompilationResult result = Fixtures.compile("valid/" + fixture);
        assertThat(result.errors()).as("errors of %s", fixture).isEmpty();
        return result.ir();
    }

    @Test
    void compilesSequentialChain() {
        WorkflowIr ir = compiled("sequential");
        assertThat(ir.entryNodes()).containsExactly("A");
        assertThat(ir.node("A").dependents()).containsExactly("B");
        assertThat(ir.node("B").dependencies()).containsExactly("A");
        assertThat(ir.node("B").references()).containsExactly("A");
        assertThat(ir.node("C").dependencies()).containsExactly("B");
        assertThat(ir.terminalNodes()).containsExactly("C");
        assertThat(ir.node("A").type()).isEqualTo("task");
        assertThat(ir.node("A").worker()).isEqualTo("function");
    }

    @Test
    void compilesFanOutFanInWithJoin() {
        WorkflowIr ir = compiled("fan-out-fan-in");
        assertThat(ir.node("A").dependents()).containsExactly("B", "C");
        IrNode join = ir.node("D");
        assertThat(join.dependencies()).containsExactly("B", "C");
        assertThat(join.waitForAll()).isTrue();
        assertThat(join.join().expected()).containsExactly("B", "C");
        assertThat(ir.terminalNodes()).containsExactly("D");
    }

    @Test
    void compilesTripleFanInOfDataEnrichment() {
        WorkflowIr ir = compiled("data-enrichment");
        assertThat(ir.node("start").dependents()).containsExactly("fetch_weather", "fetch_traffic", "fetch_news");
        assertThat(ir.node("combine").join().expected()).containsExactly("fetch_weather", "fetch_traffic", "fetch_news");
        assertThat(ir.node("display").references()).containsExactlyInAnyOrder("fetch_weather", "combine");
        assertThat(ir.terminalNodes()).containsExactly("display");
        assertThat(ir.inputs().path("required").get(0).asString()).isEqualTo("city");
    }

    @Test
    void compilesPaymentRetryLoopAndBranch() {
        WorkflowIr ir = compiled("payment-retry");
        IrNode payment = ir.node("call_payment_api");
        assertThat(payment.loop().maxIterations()).isEqualTo(5);
        assertThat(payment.loop().loopBackTo()).isEqualTo("call_payment_api");
        assertThat(payment.loop().breakPath()).containsExactly("confirm_payment");
        assertThat(payment.loop().timeoutPath()).containsExactly("refund_customer");
        assertThat(payment.loop().condition().type()).isEqualTo("composite");
        assertThat(payment.loop().condition().contextNodes()).containsExactly("calculate_total");
        assertThat(payment.branch().rules()).extracting(r -> r.nextNodes())
                .containsExactly(List.of("send_premium_confirmation", "update_crm"), List.of("send_standard_confirmation"));
        assertThat(payment.branch().defaultPath()).containsExactly("manual_review");
        assertThat(payment.isTerminal()).isFalse();
        assertThat(payment.dependencies()).containsExactly("calculate_total");
        assertThat(ir.node("refund_customer").dependencies()).containsExactly("call_payment_api");
        assertThat(ir.terminalNodes()).containsExactlyInAnyOrder("confirm_payment", "send_premium_confirmation",
                "update_crm", "send_standard_confirmation", "manual_review", "refund_customer");
    }

    @Test
    void compilesLeadScoringBranchWithDependentsOverriddenByBranch() {
        WorkflowIr ir = compiled("lead-scoring");
        IrNode scoring = ir.node("score_customer");
        assertThat(scoring.dependents()).isEmpty();
        assertThat(scoring.branch().type()).isEqualTo("conditional");
        assertThat(scoring.branch().rules()).hasSize(3);
        assertThat(scoring.branch().rules().get(0).condition().definition().get("expression").asString())
                .isEqualTo("output.score >= 80 && ctx.enrich_data.output.revenue > 100000");
        assertThat(scoring.branch().rules().get(0).nextNodes()).containsExactly("enterprise_sales", "send_gift");
        assertThat(scoring.branch().defaultPath()).containsExactly("manual_review");
        assertThat(scoring.isTerminal()).isFalse();
        assertThat(ir.node("manual_review").dependencies()).containsExactly("score_customer");
        assertThat(ir.terminalNodes()).containsExactly("enterprise_sales", "send_gift", "standard_sales",
                "nurture_campaign", "manual_review");
    }

    @Test
    void compilesAgentDrivenBranch() {
        WorkflowIr ir = compiled("lead-qualification-agent");
        IrNode agent = ir.node("qualify_lead_agent");
        assertThat(agent.type()).isEqualTo(NodeKind.AGENT.label());
        assertThat(agent.worker()).isEqualTo("agent");
        assertThat(agent.branch().type()).isEqualTo("agent_driven");
        assertThat(agent.branch().availableNextNodes())
                .containsExactly("enterprise_sales", "standard_sales", "nurture_campaign", "disqualify");
        assertThat(agent.branch().defaultPath()).containsExactly("manual_review");
        assertThat(agent.agent().get("model").asString()).isEqualTo("gpt-4");
        assertThat(ir.node("disqualify").dependencies()).containsExactly("qualify_lead_agent");
    }

    @Test
    void compilesHumanApprovalWithRejectionPath() {
        WorkflowIr ir = compiled("hitl-approval");
        IrNode approval = ir.node("manager_approval");
        assertThat(approval.type()).isEqualTo("human");
        assertThat(approval.worker()).isNull();
        assertThat(approval.dependents()).containsExactly("setup_enterprise_account");
        assertThat(approval.human().rejectionPath()).containsExactly("notify_rejection");
        assertThat(approval.human().timeout()).isEqualTo("PT48H");
        assertThat(approval.human().approvers()).containsExactly("role:approver");
        assertThat(ir.node("notify_rejection").dependencies()).containsExactly("manager_approval");
        assertThat(ir.terminalNodes()).containsExactly("setup_enterprise_account", "notify_rejection");
    }

    @Test
    void importsSequentialPlanOfSeed004() {
        CompilationResult result = Fixtures.compile("valid/research-and-write.plan");
        assertThat(result.errors()).isEmpty();
        WorkflowIr ir = result.ir();
        assertThat(ir.name()).isEqualTo("research-and-write");
        assertThat(ir.entryNodes()).containsExactly("step-1");
        assertThat(ir.node("step-1").nodeType()).isEqualTo("http_agent");
        assertThat(ir.node("step-1").config().get("agent").asString()).isEqualTo("ResearchAgent");
        assertThat(ir.node("step-1").dependents()).containsExactly("step-2");
        assertThat(ir.node("step-2").inputMapping().get("research_data").asString())
                .isEqualTo("${nodes.step-1.output.result}");
        assertThat(ir.node("step-2").references()).containsExactly("step-1");
        assertThat(ir.inputs().get("required")).extracting(n -> n.asString()).containsExactly("topic", "style");
        assertThat(ir.terminalNodes()).containsExactly("step-2");
    }

    @Test
    void mapsSeed001TypesOntoTaskWithBranchAndLoop() {
        WorkflowIr ir = compiled("seed-001-types");
        IrNode check = ir.node("check");
        assertThat(check.type()).isEqualTo("task");
        assertThat(check.nodeType()).isEqualTo("conditional");
        assertThat(check.dependents()).isEmpty();
        assertThat(check.branch().rules().get(0).condition().definition().get("type").asString()).isEqualTo("cel");
        assertThat(check.branch().rules().get(0).condition().definition().get("expression").asString())
                .isEqualTo("output.score > 80");
        assertThat(check.branch().rules().get(0).nextNodes()).containsExactly("process");
        assertThat(check.branch().defaultPath()).isEmpty();
        assertThat(check.isTerminal()).isFalse();
        IrNode process = ir.node("process");
        assertThat(process.type()).isEqualTo("task");
        assertThat(process.loop().maxIterations()).isEqualTo(5);
        assertThat(process.loop().loopBackTo()).isEqualTo("process");
        assertThat(process.loop().breakPath()).isEmpty();
        assertThat(process.loop().timeoutPath()).isEmpty();
        assertThat(process.isTerminal()).isTrue();
        assertThat(process.dependencies()).containsExactly("check");
    }

    @Test
    void dissolvesParallelNodeIntoFanOut() {
        WorkflowIr ir = compiled("parallel-fan-out");
        assertThat(ir.nodes()).doesNotContainKey("split");
        assertThat(ir.node("load").dependents()).containsExactly("resize", "tag");
        assertThat(ir.node("resize").dependencies()).containsExactly("load");
        assertThat(ir.node("tag").dependencies()).containsExactly("load");
        assertThat(ir.node("report").join().expected()).containsExactly("resize", "tag");
    }

    @Test
    void hasACompilerForEveryNodeKind() {
        assertThat(Fixtures.COMPILER.kindsWithCompilers()).containsExactlyInAnyOrder(NodeKind.values());
    }
}
