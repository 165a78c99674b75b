package io.tokenflow.runs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.lettuce.core.KeyValue;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RedisConnections;
import io.tokenflow.coordinator.RedisKeys;

/**
 * Rows of the runs list as they are now: PostgreSQL's row, with status and counter from Redis while the run is hot
 * there (a run just started may not be in PostgreSQL yet: then Redis alone answers).
 */
@Component
class LiveRunRows {

    private final RunListQueries queries;
    private final RedisConnections redis;
    private final RedisKeys keys;

    LiveRunRows(RunListQueries queries, RedisConnections redis, RedisKeys keys) {
        this.queries = queries;
        this.redis = redis;
        this.keys = keys;
    }

    /**
     * The newest runs passing the filter, with {@code recent} runs and the runs active in Redis, which PostgreSQL may
     * not have yet (the supervisor writes a run's row after its first events; a page subscribing in between would
     * otherwise miss a run whose next event is far off).
     */
    List<RunListQueries.RunRow> newest(RunFilter filter, Collection<UUID> recent) {
        Map<UUID, RunListQueries.RunRow> rows = new LinkedHashMap<>();
        queries.newest(filter).forEach(row -> rows.put(row.id(), row));
        Set<UUID> candidates = new LinkedHashSet<>(recent);
        candidates.addAll(activeInRedis());
        List<UUID> missing = candidates.stream().filter(id -> !rows.containsKey(id)).toList();
        // a run's workflow never changes: runs of other workflows are dropped before their status is read
        stored(missing).forEach(row -> {
            if (filter.admitsWorkflow(row.workflowName(), row.workflowId().toString())) {
                rows.put(row.id(), row);
            }
        });
        return rows.values().stream().map(this::live)
                .filter(row -> filter.admits(row.status(), row.workflowName(), row.workflowId().toString()))
                .sorted(Comparator.comparing(RunListQueries.RunRow::createdAt).reversed())
                .limit(RunListQueries.LIMIT).toList();
    }

    /** The rows of these runs as they are now (unknown ids are left out). */
    List<RunListQueries.RunRow> rows(Collection<UUID> ids) {
        return stored(ids).stream().map(this::live).toList();
    }

    /** PostgreSQL's rows of these runs, and Redis' for runs PostgreSQL does not have yet (unknown ids left out). */
    private List<RunListQueries.RunRow> stored(Collection<UUID> ids) {
        Map<UUID, RunListQueries.RunRow> rows = new LinkedHashMap<>();
        queries.byIds(ids).forEach(row -> rows.put(row.id(), row));
        List<RunListQueries.RunRow> fromRedis = new ArrayList<>();
        for (UUID id : ids) {
            if (!rows.containsKey(id)) {
                RunListQueries.RunRow row = fromRedis(id);
                if (row != null) {
                    fromRedis.add(row);
                }
            }
        }
        Map<UUID, String> names = queries.workflowNames(fromRedis.stream().map(RunListQueries.RunRow::workflowId)
                .toList());
        fromRedis.forEach(row -> rows.put(row.id(), new RunListQueries.RunRow(row.id(), row.workflowId(),
                names.getOrDefault(row.workflowId(), "?"), row.workflowVersion(), row.status(), row.createdAt(),
                row.endedAt(), row.counter())));
        return List.copyOf(rows.values());
    }

    /** The runs that moved most recently, per shard (a run leaves the active set when it ends). */
    private Set<UUID> activeInRedis() {
        Set<UUID> ids = new LinkedHashSet<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            redis.commands().zrevrange(keys.activeRuns(shard), 0, RunListQueries.LIMIT - 1)
                    .forEach(id -> ids.add(UUID.fromString(id)));
        }
        return ids;
    }

    private RunListQueries.RunRow live(RunListQueries.RunRow row) {
        if (row.endedAt() != null) {
            return row.counter() == null ? row.live(row.status(), 0L) : row;
        }
        RedisKeys.RunKeys run = keys.run(row.id());
        String status = redis.commands().hget(run.meta(), "status");
        String counter = redis.commands().get(run.counter());
        return row.live(status == null ? row.status() : status, counter == null ? row.counter() : Long.valueOf(counter));
    }

    private RunListQueries.RunRow fromRedis(UUID id) {
        RedisKeys.RunKeys run = keys.run(id);
        List<KeyValue<String, String>> meta = redis.commands().hmget(run.meta(), "status", "workflow", "version",
                "created", "last");
        if (!meta.get(0).hasValue() || !meta.get(1).hasValue()) {
            return null;
        }
        String status = meta.get(0).getValue();
        boolean ended = !"RUNNING".equals(status) && !"PENDING".equals(status);
        String counter = redis.commands().get(run.counter());
        return new RunListQueries.RunRow(id, UUID.fromString(meta.get(1).getValue()),
                null, Integer.parseInt(meta.get(2).getValueOrElse("0")), status,
                Instant.ofEpochMilli(Long.parseLong(meta.get(3).getValueOrElse("0"))),
                ended && meta.get(4).hasValue() ? Instant.ofEpochMilli(Long.parseLong(meta.get(4).getValue())) : null,
                counter == null ? null : Long.valueOf(counter));
    }
}
