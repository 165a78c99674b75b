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

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;
import io.tokenflow.web.NotFoundException;

/**
 * Rows of the runs list as they are now. A run PostgreSQL holds as ended is shown as its row says (status, end and
 * counter were written together). A run not ended there is shown as its page draws it ({@link RunPages}): status,
 * end, duration, counter and what it waits for all come from its events, the one state its page reads, never from
 * PostgreSQL's row and Redis at different moments (PostgreSQL writes a run's end up to seconds after Redis has it).
 * A run just started may not be in PostgreSQL yet: then its events, or else Redis alone, answer.
 */
@Component
class LiveRunRows {

    private final RunListQueries queries;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunMeta meta;
    private final RunPages pages;

    LiveRunRows(RunListQueries queries, RedisConnections redis, RedisKeys keys, RunMeta meta, RunPages pages) {
        this.meta = meta;
        this.queries = queries;
        this.redis = redis;
        this.keys = keys;
        this.pages = pages;
    }

    /** One page of the list: its rows and how many runs pass the filters. */
    record Table(List<RunListQueries.RunRow> rows, long total) {
    }

    /**
     * Page {@code number} (from 1) of the runs passing the filter, newest first. The first page also has the
     * {@code recent} runs and the runs active in Redis that PostgreSQL does not have yet (the supervisor writes a
     * run's row after its first events; a page subscribing in between would otherwise miss a run whose next event is
     * far off).
     */
    Table page(RunFilter filter, int number, Collection<UUID> recent) {
        Map<UUID, RunListQueries.RunRow> rows = new LinkedHashMap<>();
        queries.page(filter, (long) (number - 1) * RunListQueries.PAGE_SIZE).forEach(row -> rows.put(row.id(), row));
        long total = queries.count(filter);
        if (number == 1) {
            Set<UUID> candidates = new LinkedHashSet<>(recent);
            candidates.addAll(activeInRedis());
            candidates.removeAll(rows.keySet());
            List<RunListQueries.RunRow> unwritten = notInPostgres(candidates).stream()
                    .filter(row -> filter.admitsWorkflow(row.workflowName(), row.workflowId().toString())).toList();
            unwritten.forEach(row -> rows.put(row.id(), row));
            total += unwritten.size();
        }
        List<RunListQueries.RunRow> shown = rows.values().stream().map(this::live).filter(filter::admits)
                .sorted(Comparator.comparing(RunListQueries.RunRow::createdAt).reversed())
                .limit(RunListQueries.PAGE_SIZE).toList();
        return new Table(shown, Math.max(total, shown.size()));
    }

    /** The rows of these runs as they are now (unknown ids are left out). */
    List<RunListQueries.RunRow> rows(Collection<UUID> ids) {
        return stored(ids).stream().map(this::live).toList();
    }

    /**
     * The rows of these runs as PostgreSQL, or Redis for runs PostgreSQL does not have yet, hold them (unknown ids
     * left out): cheap, for telling whether runs pass a page's filters; not for showing.
     */
    List<RunListQueries.RunRow> stored(Collection<UUID> ids) {
        List<RunListQueries.RunRow> stored = new ArrayList<>(queries.byIds(ids));
        Set<UUID> found = new LinkedHashSet<>(ids);
        stored.forEach(row -> found.remove(row.id()));
        stored.addAll(fromRedis(found));
        return stored;
    }

    /** Redis' rows of those of these runs PostgreSQL does not have (unknown ids left out). */
    private List<RunListQueries.RunRow> notInPostgres(Collection<UUID> ids) {
        Set<UUID> missing = new LinkedHashSet<>(ids);
        queries.byIds(ids).forEach(row -> missing.remove(row.id()));
        return fromRedis(missing);
    }

    private List<RunListQueries.RunRow> fromRedis(Collection<UUID> ids) {
        List<RunListQueries.RunRow> fromRedis = new ArrayList<>();
        for (UUID id : ids) {
            RunListQueries.RunRow row = fromRedis(id);
            if (row != null) {
                fromRedis.add(row);
            }
        }
        Map<UUID, String> names = queries.workflowNames(fromRedis.stream().map(RunListQueries.RunRow::workflowId)
                .toList());
        // a run whose workflow is not found is another tenant's (or its workflow is gone): left out
        return fromRedis.stream().filter(row -> names.containsKey(row.workflowId()))
                .map(row -> row.named(names.get(row.workflowId()))).toList();
    }

    /** The runs that moved most recently, per shard (a run leaves the active set when it ends). */
    private Set<UUID> activeInRedis() {
        Set<UUID> ids = new LinkedHashSet<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            redis.commands().zrevrange(keys.activeRuns(shard), 0, RunListQueries.PAGE_SIZE - 1)
                    .forEach(id -> ids.add(UUID.fromString(id)));
        }
        return ids;
    }

    /** The row as the run's page would draw it now; as stored when it has ended there, or has no events yet. */
    private RunListQueries.RunRow live(RunListQueries.RunRow row) {
        if (row.endedAt() != null) {
            return row;
        }
        try {
            return row.as(pages.picture(row.id(), null, Long.MAX_VALUE));
        } catch (NotFoundException noEventsYet) {
            return row;
        }
    }

    /** Redis' own view of a run, each field from one read of its meta (a run its events do not show yet). */
    private RunListQueries.RunRow fromRedis(UUID id) {
        return meta.fields(id).map(run -> {
            String counter = redis.commands().get(keys.run(id).counter());
            return new RunListQueries.RunRow(id, run.workflowId(), null, run.version(), run.status().name(),
                    run.created(), run.created(), run.status().isFinished() ? run.last() : null,
                    counter == null ? null : Long.valueOf(counter), null);
        }).orElse(null);
    }
}
