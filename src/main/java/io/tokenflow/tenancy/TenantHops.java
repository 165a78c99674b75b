package io.tokenflow.tenancy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.springframework.stereotype.Service;

import io.lettuce.core.KeyValue;

import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * A tenant's hops (node executions ended) over the last minute, for its quota of hops per minute. Hops are counted
 * per calendar minute in Redis ({@link RedisKeys#tenantHops}), so every instance's supervisor adds to one count; the
 * last minute is the sliding-window estimate: this minute's count plus the previous minute's weighted by how much of
 * it still lies within the last 60 seconds (hops are assumed spread evenly over a minute). Hand-written rather than a
 * rate limiter library (Resilience4j's, Bucket4j's): those limit calls made here, one permit at a time, while these
 * hops are counted after the fact by whichever supervisor wrote them and only read where a start is admitted.
 */
@Service
public class TenantHops {

    static final Duration MINUTE = Duration.ofMinutes(1);
    /** A minute's count is kept while a sliding minute may still reach into it, and a little longer. */
    private static final long KEEP_SECONDS = 3 * MINUTE.toSeconds();

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final Clock clock;

    TenantHops(RedisConnections redis, RedisKeys keys, LuaScripts scripts, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.clock = clock;
    }

    /** Adds hops that ended now to the tenant's count. */
    public void add(String tenant, long hops) {
        long minute = minute(clock.instant());
        scripts.countHops().run(redis.commands(), List.of(keys.tenantHops(tenant, minute)),
                List.of(Long.toString(hops), Long.toString(KEEP_SECONDS)));
    }

    /** The tenant's hops in the 60 seconds up to now (estimated from this minute's and the previous one's). */
    public long lastMinute(String tenant) {
        Instant now = clock.instant();
        long minute = minute(now);
        List<KeyValue<String, String>> counts = redis.commands().mget(keys.tenantHops(tenant, minute - 1),
                keys.tenantHops(tenant, minute));
        long previous = count(counts.get(0));
        long current = count(counts.get(1));
        double intoMinute = (now.toEpochMilli() % MINUTE.toMillis()) / (double) MINUTE.toMillis();
        return current + Math.round(previous * (1 - intoMinute));
    }

    /** Until the current minute ends: when the previous minute's hops stop counting altogether. */
    public Duration untilNextMinute() {
        long left = MINUTE.toMillis() - clock.instant().toEpochMilli() % MINUTE.toMillis();
        return Duration.ofSeconds(Math.max(1, (left + 999) / 1000));
    }

    private static long minute(Instant at) {
        return Math.floorDiv(at.toEpochMilli(), MINUTE.toMillis());
    }

    private static long count(KeyValue<String, String> value) {
        return value.hasValue() ? Long.parseLong(value.getValue()) : 0;
    }
}
