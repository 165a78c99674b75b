package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.ArrayColumns.EPOCH_MS;
import static io.tokenflow.supervisor.ArrayColumns.epochMillis;
import static io.tokenflow.supervisor.SqlValues.json;
import static io.tokenflow.supervisor.SqlValues.statuses;

import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import io.tokenflow.engine.replay.NodeCompleted;
import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunPatched;
import io.tokenflow.engine.replay.RunResumed;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.engine.runs.RunStatusTransitions;

/** The {@code runs} rows the event log drives: created by {@code run.started}, ended by the ending events. */
@Component
class RunRows {

    private static final Log log = LogFactory.getLog(RunRows.class);
    /**
     * A run's idempotency key, or null when another run's row holds it already. The API answers a repeated key with
     * the first run (Redis, then PostgreSQL: {@code runs.IdempotencyKeys}); a second run with the same key is made only
     * when both missed it (PostgreSQL unreachable at the start, Redis lost the binding before the first run's row was
     * written). That run keeps its key in its {@code run.started} event, and its row must still be written: a unique
     * violation here would stop the event log of every run on the shard.
     */
    private static final String UNTAKEN_KEY = "case when u.idempotency_key is not null and exists (select 1 from runs k "
            + "where k.idempotency_key = u.idempotency_key and k.id <> u.id) then null else u.idempotency_key end";
    /**
     * Rows of started runs, as one statement over arrays ({@link ArrayColumns}) like the other run rows; a row the API
     * created as {@code PENDING} becomes {@code RUNNING}.
     */
    private static final String INSERT = "insert into runs (id, workflow_id, workflow_version, tag, ir_revision, shard, "
            + "status, idempotency_key, inputs, submitted_by, created_at, started_at, last_event_at) "
            + "select u.id, u.workflow_id, u.workflow_version, u.tag, u.ir_revision, u.shard, 'RUNNING', "
            + UNTAKEN_KEY + ", coalesce(u.inputs::jsonb, '{}'::jsonb), u.submitted_by, "
            + EPOCH_MS.formatted("u.started_ms") + ", " + EPOCH_MS.formatted("u.started_ms") + ", "
            + EPOCH_MS.formatted("u.started_ms") + " from unnest(?::uuid[], ?::uuid[], ?::int4[], ?::text[], ?::int4[], "
            + "?::int4[], ?::text[], ?::text[], ?::text[], ?::int8[]) as u(id, workflow_id, workflow_version, tag, "
            + "ir_revision, shard, idempotency_key, inputs, submitted_by, started_ms) "
            + "on conflict (id) do update set status = 'RUNNING', started_at = excluded.started_at "
            + "where runs.status = 'PENDING'";
    private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper.builder()
            .build();

    /** While a run runs, {@code last_event_at} moves only when it would move by at least this much. */
    static final Duration ACTIVITY_STEP = Duration.ofSeconds(1);

    private final JdbcTemplate jdbc;

    RunRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Creates the rows of started runs (a row the API created as {@code PENDING} becomes {@code RUNNING}). */
    void insertStarted(int shard, Map<UUID, RunStarted> started) {
        ArrayColumns rows = new ArrayColumns("uuid", "uuid", "int4", "text", "int4", "int4", "text", "text", "text",
                "int8");
        Set<String> batchKeys = new HashSet<>();
        started.forEach((run, event) -> rows.add(run, event.workflowId(), event.workflowVersion(), event.tag(),
                event.irRevision(), shard, firstInBatch(batchKeys, run, event.idempotencyKey()), json(event.inputs()),
                event.submittedBy(), epochMillis(event.at())));
        rows.execute(jdbc, INSERT);
    }

    /**
     * Creates, already ended, the rows of runs whose whole life (start to end) is in one batch: one row version instead
     * of a row inserted as running and rewritten by its ending in the same transaction (the status change updates every
     * index). A run whose row exists already (a redelivered batch, a row the API created) is left out and returned
     * without it: {@link #insertStarted} and {@link #endAll} treat it as any other run.
     *
     * @return the runs whose rows this inserted
     */
    Set<UUID> insertEnded(int shard, Map<UUID, WholeRun> runs) {
        ArrayColumns rows = new ArrayColumns("uuid", "uuid", "int4", "text", "int4", "text", "text", "int8", "int8",
                "text", "text", "text", "text");
        Set<String> batchKeys = new HashSet<>();
        runs.forEach((run, whole) -> {
            RunStarted started = whole.started();
            RunEnding ending = whole.ending();
            rows.add(run, started.workflowId(), started.workflowVersion(), started.tag(), started.irRevision(),
                    firstInBatch(batchKeys, run, started.idempotencyKey()), started.submittedBy(),
                    epochMillis(started.at()),
                    epochMillis(ending.at()), ending.endsAs().name(), ending.error(),
                    json(started.inputs() == null ? JSON.createObjectNode() : started.inputs()),
                    json(JSON.valueToTree(whole.outputs())));
        });
        return new HashSet<>(rows.query(jdbc, "insert into runs (id, workflow_id, workflow_version, tag, ir_revision, "
                + "shard, status, idempotency_key, inputs, submitted_by, created_at, started_at, last_event_at, ended_at, "
                + "error, final_counter, outputs) select u.id, u.workflow_id, u.workflow_version, u.tag, u.ir_revision, "
                + shard + ", u.status, " + UNTAKEN_KEY + ", u.inputs::jsonb, u.submitted_by, "
                + EPOCH_MS.formatted("u.started_ms") + ", " + EPOCH_MS.formatted("u.started_ms") + ", "
                + EPOCH_MS.formatted("u.ended_ms") + ", " + EPOCH_MS.formatted("u.ended_ms") + ", u.error, 0, u.outputs::jsonb "
                + "from unnest(?::uuid[], ?::uuid[], ?::int4[], ?::text[], ?::int4[], ?::text[], ?::text[], ?::int8[], "
                + "?::int8[], ?::text[], ?::text[], ?::text[], ?::text[]) as u(id, workflow_id, workflow_version, tag, "
                + "ir_revision, idempotency_key, submitted_by, started_ms, ended_ms, status, error, inputs, outputs) "
                + "on conflict (id) do nothing returning id", (rs, i) -> rs.getObject(1, UUID.class)));
    }

    /** The key, or null when an earlier run of the same batch has it ({@link #UNTAKEN_KEY} sees other batches'). */
    private static String firstInBatch(Set<String> batchKeys, UUID run, String idempotencyKey) {
        if (idempotencyKey == null || batchKeys.add(idempotencyKey)) {
            return idempotencyKey;
        }
        log.warn("Run " + run + " was started with idempotency key '" + idempotencyKey + "' that another run holds; "
                + "its row is written without it");
        return null;
    }

    /**
     * Locks the rows of the runs that exist and returns, for each, the last seq in its event log (0 for none) and its
     * {@code last_event_at}. The lock is {@code for no key update}: it keeps other supervisors out, but not the key-share
     * locks of foreign-key checks (counter snapshots and approvals referring to a run), which a batch of such inserts
     * takes in its own order and which {@code for update} would wait for, and deadlock with.
     *
     * <p>The seqs are read by a second statement, once the locks are held: a statement that waited for a lock sees
     * other tables as they were when it began, so it would miss the events of the supervisor it waited for. The event
     * log's insert relies on the exact figure ({@link EventLogRows}).
     */
    Locked lockLogged(Collection<UUID> runs) {
        ArrayColumns ids = new ArrayColumns("uuid");
        runs.forEach(ids::add);
        Map<UUID, Instant> lastActivity = new HashMap<>();
        // a locking read returns the newest version of each row it locked, also after waiting for another's lock
        List<UUID> locked = ids.query(jdbc, "select id, last_event_at from runs where id = any(?::uuid[]) order by id "
                + "for no key update", (rs, i) -> {
                    UUID run = rs.getObject("id", UUID.class);
                    OffsetDateTime activity = rs.getObject("last_event_at", OffsetDateTime.class);
                    if (activity != null) {
                        lastActivity.put(run, activity.toInstant());
                    }
                    return run;
                });
        Map<UUID, Long> lastSeq = new HashMap<>();
        ArrayColumns existing = new ArrayColumns("uuid");
        locked.forEach(existing::add);
        // max per run as its own subquery: one step down the primary key's end, however long the run's log is
        existing.query(jdbc, "select r.id, (select max(e.seq) from event_log e where e.run_id = r.id) as last_seq "
                + "from unnest(?::uuid[]) as r(id)", (rs, i) -> lastSeq.put(rs.getObject("id", UUID.class),
                        rs.getLong("last_seq")));
        return new Locked(lastSeq, lastActivity);
    }

    /**
     * What {@link #lockLogged} read under the lock.
     *
     * @param lastSeq      per locked run, the last seq in its event log (0 for none)
     * @param lastActivity per locked run with one, its {@code last_event_at}
     */
    record Locked(Map<UUID, Long> lastSeq, Map<UUID, Instant> lastActivity) {
    }

    /**
     * Moves each run's {@code last_event_at} forward to its latest applied event, in steps of at least
     * {@link #ACTIVITY_STEP} while it runs (a busy run's row is not rewritten by every batch). Runs in {@code ending}
     * are left to {@link #endAll}, which sets it exactly. The times read under the lock ({@link Locked#lastActivity})
     * leave out the runs the statement would not move, so most batches send none; its own condition stays the rule.
     */
    void recordActivity(Map<UUID, List<RunEvent>> applied, Set<UUID> ending, Map<UUID, Instant> lastActivity) {
        ArrayColumns rows = new ArrayColumns("uuid", "int8");
        applied.forEach((run, events) -> {
            if (ending.contains(run)) {
                return;
            }
            Instant latest = events.stream().map(RunEvent::at).max(Instant::compareTo).orElseThrow();
            Instant stored = lastActivity.get(run);
            if (stored == null || !stored.isAfter(latest.minus(ACTIVITY_STEP))) {
                rows.add(run, epochMillis(latest));
            }
        });
        rows.execute(jdbc, "update runs r set last_event_at = " + EPOCH_MS.formatted("u.at_ms")
                + " from unnest(?::uuid[], ?::bigint[]) as u(id, at_ms) where r.id = u.id and (r.last_event_at is null"
                + " or r.last_event_at <= " + EPOCH_MS.formatted("u.at_ms") + " - interval '"
                + ACTIVITY_STEP.toMillis() + " milliseconds')");
    }

    /**
     * The outputs of terminal completions (nodes that emitted nothing) in the applied events, by run; each completion
     * is in the event log once, so each is added to its run's {@code outputs} once.
     */
    static Map<UUID, Map<String, JsonNode>> terminalOutputs(Map<UUID, List<RunEvent>> applied) {
        Map<UUID, Map<String, JsonNode>> outputs = new LinkedHashMap<>();
        applied.forEach((run, events) -> events.stream().filter(NodeCompleted.class::isInstance)
                .map(NodeCompleted.class::cast).filter(NodeCompleted::terminal)
                .forEach(done -> outputs.computeIfAbsent(run, r -> new LinkedHashMap<>()).put(done.node(),
                        done.output())));
        return outputs;
    }

    /**
     * Adds terminal outputs to the runs' {@code outputs}, one statement per batch; runs in {@code ending} are left to
     * {@link #endAll}, which adds them with the ending.
     */
    void addOutputs(Map<UUID, Map<String, JsonNode>> outputs, Set<UUID> ending) {
        ArrayColumns rows = new ArrayColumns("uuid", "text");
        outputs.forEach((run, ofRun) -> {
            if (!ending.contains(run)) {
                rows.add(run, json(JSON.valueToTree(ofRun)));
            }
        });
        rows.execute(jdbc, "update runs r set outputs = coalesce(r.outputs, '{}'::jsonb) || u.outputs::jsonb "
                + "from unnest(?::uuid[], ?::text[]) as u(id, outputs) where r.id = u.id");
    }

    /** Keeps {@code ir_revision} at the newest revision a run was patched to. */
    void recordRevisions(Map<UUID, List<RunEvent>> applied) {
        List<Object[]> rows = new ArrayList<>();
        applied.forEach((run, events) -> events.stream().filter(RunPatched.class::isInstance).map(RunPatched.class::cast)
                .forEach(patched -> rows.add(new Object[] {patched.revision(), run, patched.revision()})));
        if (!rows.isEmpty()) {
            jdbc.batchUpdate("update runs set ir_revision = ? where id = ? and ir_revision < ?", rows,
                    new int[] {Types.INTEGER, Types.OTHER, Types.INTEGER});
        }
    }

    /** Failed runs that were resumed run again: no longer ended, no error, their activity the resumption. */
    void resumeAll(Map<UUID, RunResumed> resumed) {
        ArrayColumns rows = new ArrayColumns("uuid", "int8");
        resumed.forEach((run, resumption) -> rows.add(run, epochMillis(resumption.at())));
        rows.execute(jdbc, "update runs r set status = 'RUNNING', ended_at = null, error = null, final_counter = null, "
                + "last_event_at = greatest(r.last_event_at, " + EPOCH_MS.formatted("u.at_ms") + ") "
                + "from unnest(?::uuid[], ?::bigint[]) as u(id, at_ms) where r.id = u.id and r.status = 'FAILED'");
    }

    /**
     * Fails a run whose ending cannot reach the event log (the entry holding it is in quarantine, or Redis no longer
     * runs it); false when its row is not running or pending (ended already, or there is none).
     */
    boolean failUnlogged(UUID run, String reason, Instant at) {
        OffsetDateTime time = OffsetDateTime.ofInstant(at, java.time.ZoneOffset.UTC);
        return jdbc.update("update runs set status = 'FAILED', ended_at = ?, last_event_at = greatest(last_event_at, ?), "
                + "error = ? where id = ? and status in (" + statuses(RunStatusTransitions.sourcesOf(RunStatus.FAILED))
                + ")", time, time, reason, run) > 0;
    }

    /**
     * Ends runs as their ending events say, in one statement per kind of ending, adding the terminal outputs that
     * arrived with the ending (one row version per run instead of two); a move the run status table forbids is logged
     * and not applied. Every ending leaves the counter at 0 (a completion reaches it; a failure or cancel reconciles
     * to it, dropping tokens).
     */
    void endAll(Map<UUID, RunEnding> endings, Map<UUID, Map<String, JsonNode>> outputs) {
        Map<RunStatus, Map<UUID, RunEnding>> byStatus = new EnumMap<>(RunStatus.class);
        endings.forEach((run, ending) -> byStatus.computeIfAbsent(ending.endsAs(), s -> new LinkedHashMap<>())
                .put(run, ending));
        byStatus.forEach((status, ofStatus) -> {
            ArrayColumns rows = new ArrayColumns("uuid", "int8", "text", "text");
            ofStatus.forEach((run, ending) -> rows.add(run, epochMillis(ending.at()), ending.error(),
                    json(JSON.valueToTree(outputs.getOrDefault(run, Map.of())))));
            Set<UUID> ended = new HashSet<>(rows.query(jdbc, "update runs r set status = '" + status.name()
                    + "', ended_at = " + EPOCH_MS.formatted("u.at_ms") + ", last_event_at = greatest(r.last_event_at, "
                    + EPOCH_MS.formatted("u.at_ms") + "), error = u.error, final_counter = 0, "
                    + "outputs = coalesce(r.outputs, '{}'::jsonb) || u.outputs::jsonb "
                    + "from unnest(?::uuid[], ?::bigint[], ?::text[], ?::text[]) as u(id, at_ms, error, outputs) "
                    + "where r.id = u.id and r.status in ("
                    + statuses(RunStatusTransitions.sourcesOf(status)) + ") returning r.id",
                    (rs, i) -> rs.getObject(1, UUID.class)));
            ofStatus.forEach((run, ending) -> {
                if (!ended.contains(run)) {
                    log.warn("Expected run " + run + " to be allowed to move to " + status + " (event "
                            + ending.seq() + "), but its status forbids it; the status is kept");
                }
            });
        });
    }
}
