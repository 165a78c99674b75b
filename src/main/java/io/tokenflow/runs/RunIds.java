package io.tokenflow.runs;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * New run ids: RFC 9562 version 8 UUIDs laid out as version 7 ones (48 bits of Unix milliseconds first) with the
 * run's shard in the 12 bits after the version, and 62 random bits. Ids of runs started close together sit close
 * together in every index keyed by run ({@code runs}, {@code event_log}, {@code node_executions}), so the
 * supervisor's inserts touch a few recent index pages instead of one random page per run. The shard is chosen at
 * random among the shards there are when the run starts and read back from the id for the run's whole life
 * ({@link io.tokenflow.redis.RedisKeys#shardOf}), so shards can be added while runs are in flight: those keep theirs.
 * The random part keeps ids unguessable.
 */
final class RunIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Clock clock;

    RunIds(Clock clock) {
        this.clock = clock;
    }

    /** A new id on the given shard (0 to 4,095). */
    UUID next(int shard) {
        if (shard < 0 || shard > 0xFFF) {
            throw new IllegalArgumentException("Expected a shard in [0, 4096), but found " + shard);
        }
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        long millis = clock.millis();
        long high = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x8000L | shard;
        long low = 0x8000_0000_0000_0000L | ((random[0] & 0x3FL) << 56);
        for (int i = 1; i < 8; i++) {
            low |= (random[i] & 0xFFL) << (8 * (7 - i));
        }
        return new UUID(high, low);
    }
}
