package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.SqlValues.time;

import java.sql.Types;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;

/**
 * Snapshots the token counter (and the seq it belongs to) of active runs into {@code run_counter_snapshots}, for
 * diagnosis and recovery; runs the event log has not created a row for yet are skipped. Each snapshot also checks the
 * counter against the tokens the run holds in flight ({@code counter-divergence.lua}) and publishes what it found:
 * {@code tokenflow.counter.divergent.runs} (runs of this supervisor's shards whose two disagree) and
 * {@code tokenflow.counter.divergence} (the largest difference), as of the last snapshot.
 */
@Component
class CounterSnapshots {

    static final int MAX_PER_SHARD = 1_000;
    private static final String INSERT = "insert into run_counter_snapshots (run_id, snapshot_at, value, last_seq) "
            + "select ?, ?, ?, ? where exists (select 1 from runs where id = ?) on conflict do nothing";

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunMeta meta;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final LuaScripts scripts;
    private final AtomicLong divergentRuns = new AtomicLong();
    private final AtomicLong largestDivergence = new AtomicLong();

    CounterSnapshots(RedisConnections redis, RedisKeys keys, RunMeta meta, JdbcTemplate jdbc, Clock clock,
                     LuaScripts scripts, MeterRegistry meters) {
        this.scripts = scripts;
        Gauge.builder("tokenflow.counter.divergent.runs", divergentRuns, AtomicLong::get)
                .description("Active runs whose token counter disagrees with the tokens they hold in flight, as of the "
                        + "last counter snapshot").register(meters);
        Gauge.builder("tokenflow.counter.divergence", largestDivergence, AtomicLong::get)
                .description("The largest difference between an active run's token counter and the tokens it holds in "
                        + "flight, as of the last counter snapshot").register(meters);
        this.meta = meta;
        this.redis = redis;
        this.keys = keys;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Takes one snapshot of every active run of the given shards (those this supervisor holds; up to
     * {@link #MAX_PER_SHARD} per shard); returns how many were read.
     */
    int take(Collection<Integer> shards) {
        OffsetDateTime now = time(clock.instant());
        List<Object[]> rows = new ArrayList<>();
        long divergent = 0;
        long largest = 0;
        for (int shard : shards) {
            for (String run : redis.commands().zrange(keys.activeRuns(shard), 0, MAX_PER_SHARD - 1)) {
                UUID runId = UUID.fromString(run);
                read(runId, shard, now, rows);
                long divergence = Math.abs(divergence(runId, shard));
                divergent += divergence > 0 ? 1 : 0;
                largest = Math.max(largest, divergence);
            }
        }
        divergentRuns.set(divergent);
        largestDivergence.set(largest);
        if (!rows.isEmpty()) {
            jdbc.batchUpdate(INSERT, rows, new int[] {Types.OTHER, Types.TIMESTAMP_WITH_TIMEZONE, Types.INTEGER,
                    Types.BIGINT, Types.OTHER});
        }
        return rows.size();
    }

    private long divergence(UUID run, int shard) {
        RedisKeys.RunKeys runKeys = keys.run(run, shard);
        return scripts.counterDivergence().run(redis.commands(), List.of(runKeys.counter(), runKeys.tokens()),
                List.of());
    }

    private void read(UUID run, int shard, OffsetDateTime now, List<Object[]> rows) {
        String counter = redis.commands().get(keys.run(run, shard).counter());
        OptionalLong seq = meta.seq(run, shard);
        if (counter != null && seq.isPresent()) {
            rows.add(new Object[] {run, now, Integer.parseInt(counter), seq.getAsLong(), run});
        }
    }
}
