package io.tokenflow.waits;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.lettuce.core.ZAddArgs;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Payloads;
import io.tokenflow.coordinator.RunPlan;
import io.tokenflow.engine.replay.EventDataText;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.signing.EngineSignals;
import tools.jackson.databind.json.JsonMapper;

/**
 * Holds a token in its run's waits ({@code hold-wait.lua}) and takes it out again, once however many instances try
 * ({@code take-wait.lua}), sending what the node did on the completions stream as a worker would: a timer's input
 * passed on, a signal wait's input plus the signal, a signal wait's timeout as a permanent failure (code
 * {@code signal_timeout}), which its {@code timeout_path} (the node's error path) takes, or how a child run ended.
 * A node that cannot be held as configured fails the same way ({@link #fail}).
 */
@Component
class HeldTokens {

    static final String WORKER_TIMER = "timer";
    static final String WORKER_SIGNAL = "signal";
    static final String WORKER_CALL = "workflow";
    private static final Log log = LogFactory.getLog(HeldTokens.class);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final Payloads payloads;
    private final JsonMapper json;
    private final Clock clock;
    private final EngineSignals signals;

    HeldTokens(RedisConnections redis, RedisKeys keys, LuaScripts scripts, Payloads payloads, JsonMapper json,
               Clock clock, EngineSignals signals) {
        this.signals = signals;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.payloads = payloads;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Holds the token: in the run's waits hash, due at {@link Wait#until()} when it has one and, for a signal, in the
     * index of its name and key. Logs {@code node.waiting} with {@code data}; a task delivered again is absorbed.
     *
     * @return whether the token is held (now or already); false when the run no longer runs or the token is no longer
     *         in flight, so nothing waits
     */
    boolean hold(RunPlan plan, String token, Wait wait, String data) {
        RedisKeys.RunKeys run = plan.keys();
        String member = Wait.member(plan.runId(), token);
        String index = wait.isSignal() ? keys.signalWaits(plan.shard(), wait.signal(), wait.key()) : run.waits();
        long reply = scripts.holdWait().run(redis.commands(), List.of(run.meta(), run.tokens(), run.waits(),
                        keys.waitDueTimes(plan.shard()), keys.eventsStream(plan.shard()), index),
                List.of(plan.runId().toString(), Long.toString(clock.millis()), token, wait.node(),
                        json.writeValueAsString(wait), wait.until() == null ? "" : wait.until().toString(),
                        wait.isSignal() ? member : "", data));
        return reply > 0;
    }

    /** The node cannot be held as configured: it fails, permanently, through the completions stream. */
    void fail(RunPlan plan, String node, String token, String worker, String code, String message) {
        signals.post(plan.shard(), Map.of("token", token,
                "run", plan.runId().toString(), "node", node, "status", "failed", "worker", worker,
                "error", new EventDataText().text("message", message).text("kind", "permanent").text("code", code)
                        .end()));
    }

    /**
     * A child run ended: its workflow node completes with the child's outputs, or fails, permanently, with code
     * {@code child_failed} or {@code child_cancelled} and the child's error.
     */
    boolean endCall(UUID run, String token, Wait wait, ChildEnding ending) {
        boolean completed = ending.status() == RunStatus.COMPLETED;
        Map<String, String> fields = completion(run, token, wait, completed ? "completed" : "failed", WORKER_CALL);
        if (completed) {
            Payloads.TaskInput output = payloads.taskInput(run, ending.outputs());
            if (output.reference() != null) {
                fields.put("output_ref", output.reference());
            } else {
                fields.put("output", output.inline());
            }
        } else {
            boolean cancelled = ending.status() == RunStatus.CANCELLED;
            fields.put("error", new EventDataText().text("message", "Child run " + ending.child() + " ("
                            + ending.workflow() + ") " + (cancelled ? "was cancelled" : "failed")
                            + (ending.error() == null ? "" : ": " + ending.error()))
                    .text("kind", "permanent").text("code", cancelled ? "child_cancelled" : "child_failed")
                    .text("child_run_id", ending.child().toString()).end());
        }
        return take(run, token, wait, fields);
    }

    /** Looks at a child run's wait again at {@code next}, unless it was taken meanwhile. */
    void lookAgain(UUID run, String token, long next) {
        redis.commands().zadd(keys.waitDueTimes(keys.shardOf(run)), ZAddArgs.Builder.xx(),
                (double) next, Wait.member(run, token));
    }

    /** The wait the run holds for {@code token}, or empty when it holds none (taken already, or the run ended). */
    Optional<Wait> find(UUID run, String token) {
        String stored = redis.commands().hget(keys.run(run).waits(), token);
        return stored == null ? Optional.empty() : Optional.of(json.readValue(stored, Wait.class));
    }

    /** A timer is due: the node completes with its input. */
    boolean fire(UUID run, String token, Wait wait) {
        Map<String, String> fields = completion(run, token, wait, "completed", WORKER_TIMER);
        if (wait.inputRef() != null) {
            fields.put("output_ref", wait.inputRef());
        } else {
            fields.put("output", wait.input());
        }
        return take(run, token, wait, fields);
    }

    /** A signal wait's timeout passed: the node fails, permanently. */
    boolean timeOut(UUID run, String token, Wait wait) {
        Map<String, String> fields = completion(run, token, wait, "failed", WORKER_SIGNAL);
        fields.put("error", new EventDataText().text("message", "Expected signal '" + wait.signal() + "' with key '"
                + wait.key() + "' by its timeout, but none came").text("kind", "permanent")
                .text("code", "signal_timeout").end());
        return take(run, token, wait, fields);
    }

    /** The signal came: the node completes with its output ({@code output} inline, or a CAS reference). */
    boolean deliver(UUID run, String token, Wait wait, Payloads.TaskInput output) {
        Map<String, String> fields = completion(run, token, wait, "completed", WORKER_SIGNAL);
        if (output.reference() != null) {
            fields.put("output_ref", output.reference());
        } else {
            fields.put("output", output.inline());
        }
        return take(run, token, wait, fields);
    }

    /** Drops a due-times member whose wait is gone (taken, or its run ended). */
    void forget(int shard, String member) {
        redis.commands().zrem(keys.waitDueTimes(shard), member);
    }

    private static Map<String, String> completion(UUID run, String token, Wait wait, String status, String worker) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("token", token);
        fields.put("run", run.toString());
        fields.put("node", wait.node());
        fields.put("status", status);
        fields.put("worker", worker);
        return fields;
    }

    private boolean take(UUID run, String token, Wait wait, Map<String, String> fields) {
        int shard = keys.shardOf(run);
        RedisKeys.RunKeys runKeys = keys.run(run, shard);
        String member = Wait.member(run, token);
        String index = wait.isSignal() ? keys.signalWaits(shard, wait.signal(), wait.key()) : runKeys.waits();
        List<String> args = new ArrayList<>(List.of(token, wait.until() == null ? "" : member,
                wait.isSignal() ? member : ""));
        signals.signed(fields).forEach((name, value) -> {
            args.add(name);
            args.add(value);
        });
        long reply = scripts.takeWait().run(redis.commands(), List.of(runKeys.meta(), runKeys.tokens(),
                runKeys.waits(), keys.waitDueTimes(shard), keys.completionsStream(shard), index), args);
        if (reply == -3) {
            log.debug("Dropped the wait of token " + token + " of run " + run + ": it is no longer in flight");
        }
        return reply == 1;
    }
}
