package io.tokenflow.coordinator;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

/**
 * Dispatches a join whose last dependency arrived and which the route step could not dispatch itself (a human node, an
 * input mapping, outputs kept in CAS, or an input too large to travel inline; see {@code TokenEmitter}): its input is
 * the dependencies' outputs by id (or its input mapping), and its token goes to its task stream once, or at a human
 * node becomes an approval request ({@code dispatch-join.lua}).
 */
@Component
class JoinDispatcher {

    private static final Log log = LogFactory.getLog(JoinDispatcher.class);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunPlans plans;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final TokenEmitter emitter;
    private final Clock clock;

    JoinDispatcher(RedisConnections redis, RedisKeys keys, RunPlans plans, LuaScripts scripts,
                   Payloads payloads, TokenEmitter emitter, Clock clock) {
        this.emitter = emitter;
        this.redis = redis;
        this.keys = keys;
        this.plans = plans;
        this.scripts = scripts;
        this.payloads = payloads;
        this.clock = clock;
    }

    StepOutcome dispatch(Signal.JoinReady join) {
        Optional<RunPlan> plan = plans.find(join.run());
        if (plan.isEmpty()) {
            return StepOutcome.NOT_RUNNING;
        }
        IrNode node = plan.get().workflow().node(join.node());
        Payloads.TaskInput input = payloads.taskInput(plan.get(), inputOf(plan.get(), node));
        long now = clock.millis();
        StepArguments step = StepArguments.routing(keys, plan.get());
        step.args(join.run().toString(), Long.toString(now), join.token(), TokenPlaces.of(node.id(), join.iteration()));
        if (node.human() != null) {
            step.args("human", node.id(), TokenEmitter.approvalId(join.run(), join.token()).toString(),
                    emitter.approvalRequest(plan.get(), node, join.token(), join.iteration(), input, now));
        } else {
            TaskEntry entry = new TaskEntry(join.token(), join.run(), node.id(), node.worker(), join.iteration(), 1,
                    input.inline(), input.reference(), plan.get().workflow().configs().get(node.id()), now, null);
            step.key(keys.taskStream(node.worker(), plan.get().shard()));
            List<String> fields = entry.fields();
            step.args(node.taskKind(), Integer.toString(fields.size()));
            step.args(fields);
        }
        StepOutcome outcome = StepOutcome.of(scripts.dispatchJoin().run(redis.commands(), step.keys(), step.args()));
        if (outcome == StepOutcome.UNKNOWN_TOKEN || outcome == StepOutcome.UNKNOWN_RUN) {
            log.warn("Join token " + join.token() + " of run " + join.run() + " at " + join.node() + " was refused: " + outcome);
        }
        return outcome;
    }

    private JsonNode inputOf(RunPlan plan, IrNode node) {
        Set<String> needed = new LinkedHashSet<>(node.dependencies());
        if (node.inputMapping() != null) {
            needed.addAll(InputResolver.referencedNodes(node.inputMapping()));
        }
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        redis.commands().hmget(plan.keys().ctx(), needed.toArray(String[]::new))
                .forEach(kv -> outputs.put(kv.getKey(), kv.hasValue() ? payloads.fromContext(kv.getValue()) : null));
        if (node.inputMapping() != null) {
            return InputResolver.resolve(node.inputMapping(), plan.input(), outputs::get);
        }
        Map<String, JsonNode> merged = new LinkedHashMap<>();
        node.dependencies().forEach(dependency -> merged.put(dependency, outputs.get(dependency)));
        return InputResolver.merge(merged);
    }
}
