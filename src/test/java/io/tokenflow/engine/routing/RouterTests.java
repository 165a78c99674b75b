package io.tokenflow.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.engine.compiler.WorkflowCompiler;
import io.tokenflow.engine.conditions.CompiledCondition;
import io.tokenflow.engine.conditions.ConditionContext;
import io.tokenflow.engine.conditions.ConditionEvaluationException;
import io.tokenflow.engine.conditions.ConditionEvaluator;
import io.tokenflow.engine.conditions.ConditionEngine;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.types.BuiltInNodeTypes;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Routing decisions of branches, loops and agent choices on the seed examples. Conditions are decided by a scripted
 * evaluator (each condition's outcome given by the test), so these tests are about where tokens go, not about any
 * expression language.
 */
class RouterTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void staticRoutingFansOutAndParksJoinArrivals() {
        Router router = new Router(new Scripted());
        Routing routing = router.route(compile("fan-out-fan-in"), "A", new Input(0, 0));
        assertThat(targets(routing)).containsExactly("B", "C");
        assertThat(routing.decision()).isNull();
        Routing arrival = router.route(compile("fan-out-fan-in"), "B", new Input(0, 0));
        assertThat(arrival.emissions()).singleElement().satisfies(emission -> {
            assertThat(emission.target()).isEqualTo("D");
            assertThat(emission.join()).isTrue();
            assertThat(emission.expected()).isEqualTo(2);
        });
    }

    @Test
    void branchTakesTheFirstRuleThatHolds() {
        WorkflowIr ir = compile("lead-scoring");
        Scripted conditions = new Scripted()
                .when("output.score >= 80 && ctx.enrich_data.output.revenue > 100000", c -> false)
                .when("output.score >= 50", c -> true)
                .when("output.score < 50", c -> false);
        Routing routing = new Router(conditions).route(ir, "score_customer", new Input(0, 0));
        assertThat(targets(routing)).containsExactly("standard_sales");
        assertThat(routing.decision().path("branch").path("rule").asInt()).isEqualTo(1);
        assertThat(conditions.asked).containsExactly("output.score >= 80 && ctx.enrich_data.output.revenue > 100000",
                "output.score >= 50");
    }

    @Test
    void branchGivesTheConditionTheContextNodesItReads() {
        WorkflowIr ir = compile("lead-scoring");
        Input input = new Input(0, 0);
        new Router(new Scripted().when("output.score >= 80 && ctx.enrich_data.output.revenue > 100000", c -> true))
                .route(ir, "score_customer", input);
        assertThat(input.contextRequests).containsExactly(Set.of("enrich_data"));
    }

    @Test
    void branchFallsBackToItsDefault() {
        WorkflowIr ir = compile("lead-scoring");
        Routing routing = new Router(new Scripted()).route(ir, "score_customer", new Input(0, 0));
        assertThat(targets(routing)).containsExactly("manual_review");
        assertThat(routing.decision().path("branch").path("default").asBoolean()).isTrue();
    }

    @Test
    void loopGoesBackWhileItsConditionHoldsAndPassesRemain() {
        WorkflowIr ir = compile("payment-retry");
        Router router = new Router(new Scripted().whenType("composite", c -> true));
        Routing first = router.route(ir, "call_payment_api", new Input(0, 0));
        assertThat(first.loop()).isEqualTo(Routing.LoopStep.AGAIN);
        assertThat(first.emissions()).singleElement().satisfies(emission -> {
            assertThat(emission.target()).isEqualTo("call_payment_api");
            assertThat(emission.iteration()).isEqualTo(1);
            assertThat(emission.join()).isFalse();
        });
        Routing fourth = router.route(ir, "call_payment_api", new Input(3, 3));
        assertThat(fourth.emissions()).singleElement().extracting(Emission::iteration).isEqualTo(4);
        assertThat(fourth.decision().path("loop").path("pass").asInt()).isEqualTo(4);
    }

    @Test
    void loopTakesItsTimeoutPathAtTheLimitWithoutBranching() {
        WorkflowIr ir = compile("payment-retry");
        Scripted conditions = new Scripted().whenType("composite", c -> true);
        Routing fifth = new Router(conditions).route(ir, "call_payment_api", new Input(4, 4));
        assertThat(fifth.loop()).isEqualTo(Routing.LoopStep.EXITED);
        assertThat(targets(fifth)).containsExactly("refund_customer");
        assertThat(fifth.emissions()).allSatisfy(emission -> assertThat(emission.iteration()).isZero());
        assertThat(fifth.decision().path("loop").path("action").asString()).isEqualTo("timeout");
        assertThat(conditions.asked).containsExactly("composite");
    }

    @Test
    void loopGoesBackAtTheIterationTheRunHandsOutNext() {
        WorkflowIr ir = compile("payment-retry");
        Router router = new Router(new Scripted().whenType("composite", c -> true));
        Routing again = router.route(ir, "call_payment_api", new Input(5, 1).handingOut(9));
        assertThat(again.loop()).isEqualTo(Routing.LoopStep.AGAIN);
        assertThat(again.emissions()).singleElement().extracting(Emission::iteration).isEqualTo(9);
        assertThat(again.decision().path("loop").path("pass").asInt()).isEqualTo(2);
    }

    @Test
    void loopExitsAtTheIterationItWasEnteredAt() {
        WorkflowIr ir = compile("payment-retry");
        Scripted conditions = new Scripted().whenType("composite", c -> false)
                .when("output.status == 'success' && output.amount >= 1000", c -> true);
        Routing routing = new Router(conditions).route(ir, "call_payment_api", new Input(7, 2).enteredAt(4));
        assertThat(routing.loop()).isEqualTo(Routing.LoopStep.EXITED);
        assertThat(routing.emissions()).hasSize(3).allSatisfy(emission -> assertThat(emission.iteration())
                .isEqualTo(4));
    }

    @Test
    void loopBreaksToItsBreakPathAndItsBranchChoice() {
        WorkflowIr ir = compile("payment-retry");
        Scripted conditions = new Scripted().whenType("composite", c -> false)
                .when("output.status == 'success' && output.amount >= 1000", c -> true);
        Routing routing = new Router(conditions).route(ir, "call_payment_api", new Input(2, 2));
        assertThat(routing.loop()).isEqualTo(Routing.LoopStep.EXITED);
        assertThat(targets(routing)).containsExactly("confirm_payment", "send_premium_confirmation", "update_crm");
        assertThat(routing.decision().path("loop").path("action").asString()).isEqualTo("break");
    }

    @Test
    void conditionThatCannotBeDecidedFailsTheRoutingWithTheRuleNamed() {
        WorkflowIr ir = compile("lead-scoring");
        Scripted conditions = new Scripted().when("output.score >= 80 && ctx.enrich_data.output.revenue > 100000",
                c -> {
                    throw new ConditionEvaluationException("No such key: revenue");
                });
        Routing routing = new Router(conditions).route(ir, "score_customer", new Input(0, 0));
        assertThat(routing.failed()).isTrue();
        assertThat(routing.emissions()).isEmpty();
        assertThat(routing.failure()).contains("rule #1", "score_customer", "No such key: revenue");
    }

    @Test
    void agentChoiceWithinTheAllowListIsTaken() {
        WorkflowIr ir = compile("lead-qualification-agent");
        Input input = new Input(0, 0).deciding(new AgentDecision(List.of("enterprise_sales"), "big account"));
        Routing routing = new Router(new Scripted()).route(ir, "qualify_lead_agent", input);
        assertThat(targets(routing)).containsExactly("enterprise_sales");
        JsonNode agent = routing.decision().path("branch").path("agent");
        assertThat(agent.path("accepted").asBoolean()).isTrue();
        assertThat(agent.path("reasoning").asString()).isEqualTo("big account");
    }

    @Test
    void agentChoiceOutsideTheAllowListIsRefusedAndTheDefaultTaken() {
        WorkflowIr ir = compile("lead-qualification-agent");
        Input input = new Input(0, 0).deciding(new AgentDecision(List.of("enterprise_sales", "wire_money"), "why not"));
        Routing routing = new Router(new Scripted()).route(ir, "qualify_lead_agent", input);
        assertThat(targets(routing)).containsExactlyElementsOf(ir.node("qualify_lead_agent").branch().defaultPath());
        JsonNode agent = routing.decision().path("branch").path("agent");
        assertThat(agent.path("accepted").asBoolean()).isFalse();
        assertThat(agent.path("refused").get(0).asString()).isEqualTo("wire_money");
        assertThat(agent.path("reason").asString()).contains("wire_money");
    }

    @Test
    void agentWithoutAChoiceTakesTheDefault() {
        WorkflowIr ir = compile("lead-qualification-agent");
        Routing routing = new Router(new Scripted()).route(ir, "qualify_lead_agent", new Input(0, 0));
        assertThat(targets(routing)).containsExactlyElementsOf(ir.node("qualify_lead_agent").branch().defaultPath());
        assertThat(routing.decision().path("branch").path("agent").path("accepted").asBoolean()).isFalse();
    }

    private static List<String> targets(Routing routing) {
        return routing.emissions().stream().map(Emission::target).toList();
    }

    private static WorkflowIr compile(String fixture) {
        String path = "/workflows/valid/" + fixture + ".json";
        try (InputStream in = RouterTests.class.getResourceAsStream(path)) {
            CompilationResult result = new WorkflowCompiler(BuiltInNodeTypes.get(), ConditionEngine.withDefaults())
                    .compile(JSON.readTree(in));
            assertThat(result.errors()).as("errors of %s", fixture).isEmpty();
            return result.ir();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decides CEL conditions by their expression and other types by their type, as each test scripts it. */
    private static final class Scripted implements ConditionEvaluator {
        private final Map<String, Predicate<ConditionContext>> outcomes = new java.util.HashMap<>();
        final List<String> asked = new ArrayList<>();

        Scripted when(String expression, Predicate<ConditionContext> outcome) {
            outcomes.put(expression, outcome);
            return this;
        }

        Scripted whenType(String type, Predicate<ConditionContext> outcome) {
            outcomes.put(type, outcome);
            return this;
        }

        @Override
        public boolean evaluate(CompiledCondition condition, ConditionContext context) {
            String key = "cel".equals(condition.type()) ? condition.definition().path("expression").asString()
                    : condition.type();
            asked.add(key);
            return outcomes.getOrDefault(key, c -> false).test(context);
        }
    }

    /** A completion's facts; by default in a run whose only loop is the completing node's, entered at iteration 0. */
    private static final class Input implements RoutingInput {
        private final int iteration;
        private final int passes;
        private int entry;
        private int next;
        private AgentDecision decision;
        final List<Set<String>> contextRequests = new ArrayList<>();

        Input(int iteration, int passes) {
            this.iteration = iteration;
            this.passes = passes;
            this.next = passes + 1;
        }

        Input enteredAt(int entry) {
            this.entry = entry;
            return this;
        }

        Input handingOut(int next) {
            this.next = next;
            return this;
        }

        Input deciding(AgentDecision decision) {
            this.decision = decision;
            return this;
        }

        @Override
        public int iteration() {
            return iteration;
        }

        @Override
        public int loopPasses() {
            return passes;
        }

        @Override
        public int loopEntry() {
            return entry;
        }

        @Override
        public int nextIteration() {
            return next;
        }

        @Override
        public ConditionContext conditionContext(Set<String> contextNodes) {
            contextRequests.add(contextNodes);
            return new ConditionContext(JSON.readTree("{\"score\": 90}"), Map.of(), null);
        }

        @Override
        public Optional<AgentDecision> agentDecision() {
            return Optional.ofNullable(decision);
        }
    }
}
