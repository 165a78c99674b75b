package io.tokenflow.runs;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;

/**
 * Rows of the runs list as they are now: PostgreSQL's row, with status and counter from Redis while the run is hot
 * there (a run just started may not be in PostgreSQL yet: then Redis alone answers).
 */
@Component
class LiveRunRows {

    private final RunListQueries queries;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunMeta meta;

    LiveRunRows(RunListQueries queries, RedisConnections redis, RedisKeys keys, RunMeta meta) {
        this.meta = meta;
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
        // a run whose workflow is not found is another tenant's (or its workflow is gone): left out
        fromRedis.stream().filter(row -> names.containsKey(row.workflowId())).forEach(row -> rows.put(row.id(),
                new RunListQueries.RunRow(row.id(), row.workflowId(), names.get(row.workflowId()),
                        row.workflowVersion(), row.status(), row.createdAt(), row.endedAt(), row.counter())));
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
        String status = meta.status(row.id()).map(RunStatus::name).orElse(row.status());
        String counter = redis.commands().get(keys.run(row.id()).counter());
        return row.live(status, counter == null ? row.counter() : Long.valueOf(counter));
    }

    private RunListQueries.RunRow fromRedis(UUID id) {
        return meta.fields(id).map(run -> {
            String counter = redis.commands().get(keys.run(id).counter());
            return new RunListQueries.RunRow(id, run.workflowId(), null, run.version(), run.status().name(),
                    run.created(), run.status().isFinished() ? run.last() : null,
                    counter == null ? null : Long.valueOf(counter));
        }).orElse(null);
    }
}
