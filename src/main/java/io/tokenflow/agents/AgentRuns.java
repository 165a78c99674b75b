package io.tokenflow.agents;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Payloads;
import io.tokenflow.coordinator.RunPlan;
import io.tokenflow.coordinator.RunPlans;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.Task;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Loads what an agent token works with from the run's plan and its context hash in Redis. */
@Component
public class AgentRuns {

    private final RunPlans plans;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final Payloads payloads;

    AgentRuns(RunPlans plans, RedisConnections redis, RedisKeys keys, Payloads payloads) {
        this.plans = plans;
        this.redis = redis;
        this.keys = keys;
        this.payloads = payloads;
    }

    public AgentRun load(Task task) throws AgentFailure {
        RunPlan plan = plans.find(task.run()).orElseThrow(() -> AgentFailure.permanent("run_unknown",
                "Expected run " + task.run() + " to be running, but Redis knows no plan for it"));
        IrNode node = plan.workflow().node(task.node());
        if (node == null) {
            throw AgentFailure.permanent("node_unknown", "Expected node '" + task.node() + "' in the IR of run "
                    + task.run() + ", but it has none");
        }
        return new AgentRun(task, node, plan.input(), outputs(task));
    }

    private Map<String, JsonNode> outputs(Task task) {
        Map<String, String> stored = new TreeMap<>(redis.commands().hgetall(keys.run(task.run()).ctx()));
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        stored.forEach((key, value) -> outputs.put(key, resolved(key, value)));
        return outputs;
    }

    private JsonNode resolved(String key, String stored) {
        try {
            return payloads.fromContext(stored);
        } catch (RuntimeException e) {
            return JsonNodeFactory.instance.stringNode("(the output of " + key + " could not be read: "
                    + e.getMessage() + ")");
        }
    }
}
