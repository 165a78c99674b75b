package io.tokenflow.supervisor;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.lettuce.core.Range;

import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * The leases by which supervisors split the shards between them, so that no shard's event log is written by two: a
 * shard's lease ({@code hold-lease.lua}) is held by one supervisor at a time and kept by it on every heartbeat; a
 * supervisor that dies loses its leases when they run out. The supervisors alive (a sorted set of heartbeats, pruned
 * of those older than a lease) share the shards evenly: each holds at most its {@link #share()}.
 *
 * <p>Written by hand: a lease is one SET and one compare-and-expire in Lua; the lock libraries at hand (Spring
 * Integration's {@code RedisLockRegistry}, Redisson) tie a lock to the thread that took it and bring a framework
 * for it, while a shard changes hands between threads and instances.
 */
final class ShardLeases {

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final String owner;
    private final Duration ttl;
    private final Clock clock;

    ShardLeases(RedisConnections redis, RedisKeys keys, LuaScripts scripts, String owner, Duration ttl, Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.owner = owner;
        this.ttl = ttl;
        this.clock = clock;
    }

    /**
     * Tells the others this supervisor is alive, forgets those silent for a lease's time, and answers how many
     * shards this one may hold: the shards divided by the supervisors alive, rounded up.
     */
    int share() {
        long now = clock.millis();
        redis.commands().zadd(keys.supervisorsAlive(), (double) now, owner);
        redis.commands().zremrangebyscore(keys.supervisorsAlive(), Range.create(0d, (double) (now - ttl.toMillis())));
        long alive = Math.max(1, redis.commands().zcard(keys.supervisorsAlive()));
        return (int) ((keys.shards() + alive - 1) / alive);
    }

    /** Takes the shard's lease when free, or keeps it when this supervisor holds it; false when another holds it. */
    boolean hold(int shard) {
        return scripts.holdLease().run(redis.commands(), List.of(keys.supervisorLease(shard)),
                List.of(owner, Long.toString(ttl.toMillis()))) == 1;
    }

    /** Gives the shard's lease up (if this supervisor still holds it). */
    void drop(int shard) {
        scripts.dropLease().run(redis.commands(), List.of(keys.supervisorLease(shard)), List.of(owner));
    }

    /** No longer counted among the supervisors alive (its shards are then shared by the others). */
    void leave() {
        redis.commands().zrem(keys.supervisorsAlive(), owner);
    }

    /** How often leases are kept: a quarter of their time to live, so that three heartbeats may be missed. */
    Duration heartbeat() {
        return ttl.dividedBy(4);
    }
}
