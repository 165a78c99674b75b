package io.tokenflow.coordinator;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.ApprovalDecided;
import io.tokenflow.engine.replay.ApprovalEscalated;
import io.tokenflow.engine.routing.Emission;
import io.tokenflow.engine.routing.Router;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The approvals runs wait for, as kept in each run's pending-approvals hash in Redis (the source of truth while a run
 * is live; PostgreSQL's {@code approvals} table follows from the events). Deciding and escalating are atomic Lua steps:
 * a decision happens once, whoever sends it.
 */
@Component
public class PendingApprovals {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final TokenEmitter emitter;
    private final Clock clock;

    PendingApprovals(RedisConnections redis, RedisKeys keys, RunPlans plans, LuaScripts scripts,
                     Payloads payloads, TokenEmitter emitter, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.scripts = scripts;
        this.payloads = payloads;
        this.emitter = emitter;
        this.clock = clock;
    }

    /** A pending approval of a running run, or empty when it is decided, unknown, or its run is no longer live. */
    public Optional<Pending> find(UUID runId, UUID approvalId) {
        String raw = redis.commands().hget(keys.run(runId).approvals(), approvalId.toString());
        return raw == null ? Optional.empty() : Optional.of(Pending.of(runId, approvalId, raw, payloads.parse(raw)));
    }

    /**
     * Decides an approval: approve sends tokens to the human node's dependents, reject to its rejection path (or fails
     * the run when it has none). The human node's output is its input plus {@code approval}: the decision, comment,
     * who decided and when.
     */
    public DecisionOutcome decide(Pending pending, Decision decision) {
        Optional<RunPlan> plan = plans.find(pending.runId());
        if (plan.isEmpty()) {
            return DecisionOutcome.NOT_RUNNING;
        }
        IrNode node = plan.get().workflow().node(pending.node());
        List<String> next = decision.approved() ? node.dependents() : node.human().rejectionPath();
        boolean fails = !decision.approved() && next.isEmpty();
        long now = clock.millis();
        ObjectNode output = output(payloads.fromContext(payloads.write(pending.request().path("input"))), decision, now);
        String outputText = payloads.write(output);
        StepArguments step = StepArguments.routing(keys, plan.get());
        step.args(pending.runId().toString(), Long.toString(now), pending.approvalId().toString(), node.id(),
                fails ? "failed" : "completed", fails ? "" : payloads.contextValue(plan.get(), outputText, null),
                decidedData(plan.get(), pending, decision, fails ? List.of() : next,
                        fails ? null : outputText));
        if (fails) {
            step.args("0");
        } else {
            List<Emission> emissions = Router.emissions(plan.get().workflow().ir(), next, pending.iteration());
            NodeOutputs outputs = new NodeOutputs(redis, keys, payloads, plan.get(), node.id(), outputText, null);
            emitter.add(step, plan.get(), node.id(), pending.token(), emissions, outputs, now);
        }
        long reply = scripts.decideApproval().run(redis.commands(), step.keys(), step.args());
        return reply >= 0 ? DecisionOutcome.DECIDED : reply == -1 ? DecisionOutcome.NOT_PENDING
                : DecisionOutcome.NOT_RUNNING;
    }

    /** Hands a pending approval to other approvers; false when it was decided or changed meanwhile. */
    public boolean escalate(Pending pending, List<String> approvers, Long timeoutAt) {
        ObjectNode request = (ObjectNode) pending.request().deepCopy();
        ArrayNode list = request.putArray("approvers");
        approvers.forEach(list::add);
        request.put("level", pending.level() + 1);
        if (timeoutAt == null) {
            request.putNull("timeout_at");
        } else {
            request.put("timeout_at", timeoutAt);
        }
        ObjectNode entry = JSON.objectNode().put("node", pending.node()).put("token", pending.token());
        entry.set("request", request);
        String data = ApprovalEscalated.data(pending.approvalId().toString(), pending.iteration(), pending.level() + 1,
                approvers, timeoutAt);
        RedisKeys.RunKeys run = keys.run(pending.runId());
        long reply = scripts.escalateApproval().run(redis.commands(),
                List.of(run.meta(), run.approvals(), keys.eventsStream(run.shard())),
                List.of(pending.runId().toString(), Long.toString(clock.millis()), pending.approvalId().toString(),
                        pending.raw(), payloads.write(entry), data));
        return reply == 1;
    }

    private static ObjectNode output(JsonNode input, Decision decision, long now) {
        ObjectNode output = input != null && input.isObject() ? ((ObjectNode) input).deepCopy() : JSON.objectNode();
        if (input != null && !input.isObject()) {
            output.set("input", input);
        }
        ObjectNode approval = output.putObject("approval").put("decision", decision.approved() ? "approve" : "reject")
                .put("decided_by", decision.decidedBy()).put("decided_at", Instant.ofEpochMilli(now).toString())
                .put("automatic", decision.automatic());
        if (decision.comment() == null) {
            approval.putNull("comment");
        } else {
            approval.put("comment", decision.comment());
        }
        return output;
    }

    private String decidedData(RunPlan plan, Pending pending, Decision decision, List<String> next,
                               String outputText) {
        return ApprovalDecided.data(pending.approvalId().toString(), pending.iteration(), decision.approved(),
                decision.decidedBy(), decision.automatic(), decision.comment(), next,
                outputText == null ? null : payloads.contextValue(plan, outputText, null));
    }

    /** A decision: approve or reject, by whom (a user name, or {@code system} for timeouts), with a comment. */
    public record Decision(boolean approved, String decidedBy, String comment, boolean automatic) {
    }

    public enum DecisionOutcome { DECIDED, NOT_PENDING, NOT_RUNNING }

    /** One pending approval: its entry in the run's pending-approvals hash, parsed. */
    public record Pending(UUID runId, UUID approvalId, String node, String token, JsonNode request, String raw) {

        static Pending of(UUID runId, UUID approvalId, String raw, JsonNode entry) {
            return new Pending(runId, approvalId, entry.path("node").asString(), entry.path("token").asString(),
                    entry.path("request"), raw);
        }

        public int iteration() {
            return request.path("iteration").asInt();
        }

        public int level() {
            return request.path("level").asInt();
        }

        public List<String> approvers() {
            return texts("approvers");
        }

        public List<String> escalateTo() {
            return texts("escalate_to");
        }

        private List<String> texts(String field) {
            List<String> texts = new ArrayList<>();
            request.path(field).forEach(text -> texts.add(text.asString()));
            return texts;
        }

        public String escalationPolicy() {
            return request.path("escalation_policy").isString() ? request.path("escalation_policy").asString() : null;
        }

        /** When it times out (epoch ms), or null. */
        public Long timeoutAt() {
            return request.path("timeout_at").isNumber() ? request.path("timeout_at").asLong() : null;
        }
    }
}
