package io.tokenflow.coordinator;

import java.util.ArrayList;
import java.util.List;

import io.tokenflow.redis.RedisKeys;

/** KEYS and ARGV of one Lua call; task streams are added to KEYS once each. */
final class StepArguments {

    private final List<String> keys;
    private final List<String> args = new ArrayList<>(64);

    StepArguments(List<String> fixedKeys) {
        this.keys = new ArrayList<>(fixedKeys);
    }

    /** The run's routing keys, in the order the Lua prelude names them ({@code R}). */
    static StepArguments routing(RedisKeys keys, RunPlan plan) {
        RedisKeys.RunKeys run = plan.keys();
        return new StepArguments(List.of(run.meta(), run.counter(), run.tokens(), run.consumed(), run.ctx(),
                run.joins(), keys.activeRuns(plan.shard()), keys.eventsStream(plan.shard()),
                keys.completionsStream(plan.shard()), run.loops(), run.approvals(), run.retries(),
                keys.dueTimes(plan.shard())));
    }

    /** The 1-based KEYS index of a key, adding it when new. */
    int key(String key) {
        int index = keys.indexOf(key);
        if (index < 0) {
            keys.add(key);
            return keys.size();
        }
        return index + 1;
    }

    void args(String... values) {
        args.addAll(List.of(values));
    }

    void args(List<String> values) {
        args.addAll(values);
    }

    List<String> keys() {
        return keys;
    }

    List<String> args() {
        return args;
    }
}
