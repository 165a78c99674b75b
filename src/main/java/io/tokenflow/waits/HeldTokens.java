package io.tokenflow.waits;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Payloads;
import io.tokenflow.engine.replay.EventDataText;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.json.JsonMapper;

/**
 * Takes a held token out of its wait, once however many instances try ({@code take-wait.lua}), and sends what the
 * node did on the completions stream as a worker would: a timer's input passed on, a signal wait's input plus the
 * signal, or a signal wait's timeout as a permanent failure (code {@code signal_timeout}), which its
 * {@code timeout_path} (the node's error path) takes.
 */
@Component
class HeldTokens {

    static final String WORKER_TIMER = "timer";
    static final String WORKER_SIGNAL = "signal";
    private static final Log log = LogFactory.getLog(HeldTokens.class);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final JsonMapper json;

    HeldTokens(RedisConnections redis, RedisKeys keys, LuaScripts scripts, JsonMapper json) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.json = json;
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
        fields.forEach((name, value) -> {
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
