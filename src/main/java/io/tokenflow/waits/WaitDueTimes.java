package io.tokenflow.waits;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.DueWork;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Acts on the wait due times of every shard on each poll of the coordinator's due times ({@link DueWork}): a timer that
 * is due fires, a signal wait past its timeout times out ({@link HeldTokens}), a workflow node looks at its child
 * again ({@link ChildRuns#lookAt}). Whoever takes a wait removes its
 * member, so it is acted on once however many instances look, and an instance that stopped finds the due times in
 * Redis where it left them: a timer whose time passed while no instance ran fires as soon as one does.
 */
@Component
class WaitDueTimes implements DueWork {

    private static final int BATCH = 500;

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final HeldTokens held;
    private final ChildRuns calls;
    private final Clock clock;

    WaitDueTimes(RedisConnections redis, RedisKeys keys, HeldTokens held, ChildRuns calls, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.held = held;
        this.calls = calls;
        this.clock = clock;
    }

    @Override
    public void actOnDue() {
        for (int shard = 0; shard < keys.shards(); shard++) {
            List<String> due = redis.commands().zrangebyscore(keys.waitDueTimes(shard),
                    Range.create(0L, (Long) clock.millis()), Limit.create(0, BATCH));
            for (String member : due) {
                actOn(shard, member);
            }
        }
    }

    private void actOn(int shard, String member) {
        String[] parts = member.split(" ", 2);
        UUID run = UUID.fromString(parts[0]);
        Optional<Wait> wait = held.find(run, parts[1]);
        if (wait.isEmpty()) {
            held.forget(shard, member);
        } else if (wait.get().isChild()) {
            calls.lookAt(run, parts[1], wait.get());
        } else if (wait.get().isSignal()) {
            held.timeOut(run, parts[1], wait.get());
        } else {
            held.fire(run, parts[1], wait.get());
        }
    }
}
