package io.tokenflow.signing;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.stereotype.Component;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * The signals this application writes to a completions stream itself — its built-in workers' completions and starts
 * when not routed in-process, held tokens' failures, timers and signal waits, sub-workflow and map endings — signed
 * with the built-in key as any worker signs (docs/worker-protocol.md §6). The one place they are signed.
 */
@Component
public class EngineSignals {

    private final WorkerKeys keys;
    private final RedisConnections redis;
    private final RedisKeys redisKeys;
    private final Clock clock;

    EngineSignals(WorkerKeys keys, RedisConnections redis, RedisKeys redisKeys, Clock clock) {
        this.keys = keys;
        this.redis = redis;
        this.redisKeys = redisKeys;
        this.clock = clock;
    }

    /** The fields with {@code key}, {@code signed_at} and {@code sig} added (a new map; the given one is unchanged). */
    public Map<String, String> signed(Map<String, String> fields) {
        WorkerKey key = keys.builtIn();
        Map<String, String> signed = new LinkedHashMap<>(fields);
        signed.put(SignalSignature.KEY, key.id());
        signed.put(SignalSignature.SIGNED_AT, Long.toString(clock.millis()));
        signed.put(SignalSignature.SIG, SignalSignature.sign(key.secret(), signed));
        return signed;
    }

    /** Signs the signal and adds it to the shard's completions stream (on the shared connection). */
    public void post(int shard, Map<String, String> fields) {
        redis.commands().xadd(redisKeys.completionsStream(shard), signed(fields));
    }
}
