package io.tokenflow.coordinator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrHuman;
import io.tokenflow.engine.ir.IrLimits;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.ApprovalRequested;
import io.tokenflow.engine.replay.TokenEmitted;
import io.tokenflow.engine.routing.Emission;
import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.engine.routing.TokenIds;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

/**
 * Writes the emissions of a step as Lua arguments (the prelude's {@code emit_tokens}): a task token onto its worker
 * type's stream with its resolved input, an arrival at a join, or an approval request for a human node, preceded by
 * the hop limits ({@code limits.max_hops}) of the targets that have one.
 */
@Component
class TokenEmitter {

    private final RedisKeys keys;
    private final Payloads payloads;

    TokenEmitter(RedisKeys keys, Payloads payloads) {
        this.keys = keys;
        this.payloads = payloads;
    }

    /** The id of the approval a token reaching a human node creates (the same for a replayed step). */
    static UUID approvalId(UUID runId, String token) {
        return UUID.nameUUIDFromBytes(("approval:" + runId + ":" + token).getBytes(StandardCharsets.UTF_8));
    }

    void add(StepArguments step, RunPlan plan, String from, String parentToken, List<Emission> emissions,
             NodeOutputs outputs, long now) {
        addHopLimits(step, plan, emissions);
        step.args(Integer.toString(emissions.size()));
        outputs.read(referenced(plan, emissions, from));
        for (Emission emission : emissions) {
            String child = TokenIds.child(parentToken, emission.target(), emission.iteration());
            String emitted = TokenEmitted.data(from, parentToken, emission.iteration(), emission.join());
            String place = TokenPlaces.of(emission.target(), emission.iteration());
            IrNode target = plan.workflow().node(emission.target());
            if (emission.join()) {
                step.args("join", child, target.id(), place, emitted, target.id() + "#" + emission.iteration(),
                        Integer.toString(emission.expected()), from,
                        TokenIds.join(plan.runId().toString(), target.id(), emission.iteration()),
                        TokenEmitted.data(null, null, emission.iteration(), false),
                        Integer.toString(emission.iteration()));
                addJoinDispatch(step, plan, target, emission.iteration(), now);
            } else if (target.human() != null) {
                step.args("human", child, target.id(), place, emitted, approvalId(plan.runId(), child).toString(),
                        approvalRequest(plan, target, child, emission.iteration(), outputs.inputFor(target), now));
            } else {
                Payloads.TaskInput input = outputs.inputFor(target);
                TaskEntry entry = new TaskEntry(child, plan.runId(), target.id(), target.worker(), emission.iteration(),
                        1, input.inline(), input.reference(), plan.workflow().configs().get(target.id()), now, from);
                int stream = step.key(keys.taskStream(target.worker(), plan.shard()));
                List<String> fields = entry.fields();
                step.args(target.taskKind(), child, target.id(), place, emitted,
                        Integer.toString(stream), Integer.toString(fields.size()));
                step.args(fields);
            }
        }
    }

    /**
     * The hop limits of the emissions' targets (the prelude's {@code read_hop_limits}): only the targets that have one,
     * so that a step without any passes a single {@code 0} and its Lua step counts nothing.
     */
    private static void addHopLimits(StepArguments step, RunPlan plan, List<Emission> emissions) {
        List<String> limits = new ArrayList<>();
        for (Emission emission : emissions) {
            IrLimits own = plan.workflow().node(emission.target()).limits();
            if (own != null && own.maxHops() != null && !limits.contains(emission.target())) {
                limits.add(emission.target());
                limits.add(Integer.toString(own.maxHops()));
            }
        }
        step.args(Integer.toString(limits.size() / 2));
        step.args(limits);
    }

    /**
     * How the step that completes a join dispatches its token (the prelude's {@code dispatch_join}): a task node whose
     * input is its dependencies' outputs by id gets its token in that same step, with those outputs merged in Lua;
     * a human node, one with an input mapping or one that retries is left to the coordinator ({@link JoinDispatcher}),
     * as is any join whose outputs turn out to be CAS references or too large to travel inline.
     */
    private void addJoinDispatch(StepArguments step, RunPlan plan, IrNode target, int iteration, long now) {
        if (target.human() != null || target.inputMapping() != null || !"task".equals(target.taskKind())) {
            step.args("0");
            return;
        }
        List<String> dependencies = target.dependencies();
        step.args(Integer.toString(dependencies.size()));
        step.args(dependencies);
        TaskEntry entry = new TaskEntry(TokenIds.join(plan.runId().toString(), target.id(), iteration), plan.runId(),
                target.id(), target.worker(), iteration, 1, "", null, plan.workflow().configs().get(target.id()), now,
                null);
        List<String> fields = entry.fields();
        step.args(Integer.toString(step.key(keys.taskStream(target.worker(), plan.shard()))),
                Integer.toString(TaskEntry.inputValueIndex(fields) + 1), Integer.toString(Payloads.INLINE_LIMIT),
                Integer.toString(fields.size()));
        step.args(fields);
    }

    /** The {@code approval.requested} data (docs/run-events.md), also kept in the run's pending approvals. */
    String approvalRequest(RunPlan plan, IrNode node, String token, int iteration, Payloads.TaskInput input,
                                   long now) {
        IrHuman human = node.human();
        Long timeoutAt = human.timeout() == null ? null : now + Duration.parse(human.timeout()).toMillis();
        String inputJson = input.inline() != null ? input.inline() : Payloads.reference(input.reference());
        return ApprovalRequested.data(approvalId(plan.runId(), token).toString(), iteration, human.approvers(),
                timeoutAt, human.escalationPolicy(), human.escalateTo(), human.title() == null ? node.name()
                        : human.title(), human.instructions(), inputJson);
    }

    private static Set<String> referenced(RunPlan plan, List<Emission> emissions, String self) {
        Set<String> referenced = new LinkedHashSet<>();
        for (Emission emission : emissions) {
            JsonNode mapping = plan.workflow().node(emission.target()).inputMapping();
            if (!emission.join() && mapping != null) {
                referenced.addAll(InputResolver.referencedNodes(mapping));
            }
        }
        referenced.remove(self);
        return referenced;
    }
}
