package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RedisSettings;

class RunIdsTests {

    private static final Instant AT = Instant.parse("2026-11-22T12:00:00.123Z");

    @Test
    void areVersionEightUuidsCarryingTheirMillisecondAndShard() {
        UUID id = new RunIds(Clock.fixed(AT, ZoneOffset.UTC)).next(5);

        assertThat(id.version()).isEqualTo(8);
        assertThat(id.getMostSignificantBits() & 0xFFF).isEqualTo(5);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(AT.toEpochMilli());
        assertThat(id.toString()).startsWith("%012x".formatted(AT.toEpochMilli()).substring(0, 8));
    }

    @Test
    void sortByStartTimeInPostgresOrder() {
        UUID earlier = new RunIds(Clock.fixed(AT, ZoneOffset.UTC)).next(0);
        UUID later = new RunIds(Clock.fixed(AT.plusMillis(1), ZoneOffset.UTC)).next(0);

        // PostgreSQL orders uuids by their bytes, which is the order of their text
        assertThat(earlier.toString()).isLessThan(later.toString());
    }

    @Test
    void differWithinOneMillisecond() {
        RunIds ids = new RunIds(Clock.fixed(AT, ZoneOffset.UTC));
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            seen.add(ids.next(3));
        }

        assertThat(seen).hasSize(100_000);
    }

    @Test
    void keepTheirShardWhenShardsAreAdded() {
        RunIds ids = new RunIds(Clock.systemUTC());
        UUID started = ids.next(new RedisKeys(new RedisSettings(4)).nextShard());
        int shard = new RedisKeys(new RedisSettings(4)).shardOf(started);

        assertThat(new RedisKeys(new RedisSettings(12)).shardOf(started)).as("after adding shards").isEqualTo(shard);
        assertThat(new RedisKeys(new RedisSettings(12)).run(started).meta())
                .isEqualTo("wf.run:{" + shard + "}:" + started + ":meta");
        assertThat(new RedisKeys(new RedisSettings(2)).run(ids.next(7)).meta())
                .as("a run on a shard this instance does not read yet still has its keys").contains("{7}");
    }

    @Test
    void spreadNewRunsOverEveryShard() {
        RedisKeys keys = new RedisKeys(new RedisSettings(6));
        RunIds ids = new RunIds(Clock.systemUTC());
        Set<Integer> shards = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            shards.add(keys.shardOf(ids.next(keys.nextShard())));
        }

        assertThat(shards).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
    }

    @Test
    void refuseAShardTheirTwelveBitsCannotHold() {
        assertThatThrownBy(() -> new RunIds(Clock.systemUTC()).next(4096))
                .hasMessage("Expected a shard in [0, 4096), but found 4096");
        assertThatThrownBy(() -> new RedisSettings(4097))
                .hasMessage("Expected tokenflow.redis.shards in [1, 4096], but found 4097");
    }
}
