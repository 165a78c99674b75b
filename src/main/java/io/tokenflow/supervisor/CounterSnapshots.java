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

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;

/**
 * Snapshots the token counter (and the seq it belongs to) of active runs into {@code run_counter_snapshots}, for
 * diagnosis and recovery; runs the event log has not created a row for yet are skipped.
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

    CounterSnapshots(RedisConnections redis, RedisKeys keys, RunMeta meta, JdbcTemplate jdbc, Clock clock) {
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
        for (int shard : shards) {
            for (String run : redis.commands().zrange(keys.activeRuns(shard), 0, MAX_PER_SHARD - 1)) {
                read(UUID.fromString(run), shard, now, rows);
            }
        }
        if (!rows.isEmpty()) {
            jdbc.batchUpdate(INSERT, rows, new int[] {Types.OTHER, Types.TIMESTAMP_WITH_TIMEZONE, Types.INTEGER,
                    Types.BIGINT, Types.OTHER});
        }
        return rows.size();
    }

    private void read(UUID run, int shard, OffsetDateTime now, List<Object[]> rows) {
        String counter = redis.commands().get(keys.run(run, shard).counter());
        OptionalLong seq = meta.seq(run, shard);
        if (counter != null && seq.isPresent()) {
            rows.add(new Object[] {run, now, Integer.parseInt(counter), seq.getAsLong(), run});
        }
    }
}
