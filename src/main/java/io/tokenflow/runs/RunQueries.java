package io.tokenflow.runs;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.Outages;
import io.tokenflow.tenancy.TenantSql;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads runs: the durable summary and node executions from PostgreSQL, and, while a run runs, its live counter from
 * Redis (a run just started may not be in PostgreSQL yet, or PostgreSQL is unreachable: then Redis alone answers).
 */
@Service
public class RunQueries {

    private static final String SUMMARY = "select r.id, r.workflow_id, w.name, r.workflow_version, r.status, "
            + "r.created_at, r.ended_at from runs r join workflows w on w.id = r.workflow_id ";

    private final JdbcClient jdbc;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunMeta meta;
    private final JsonMapper json;

    RunQueries(JdbcClient jdbc, RedisConnections redis, RedisKeys keys, RunMeta meta, JsonMapper json) {
        this.meta = meta;
        this.jdbc = jdbc;
        this.redis = redis;
        this.keys = keys;
        this.json = json;
    }

    public List<RunViews.Summary> list(String status, String workflow, int page, int size) {
        return jdbc.sql(SUMMARY + "where (cast(:status as text) is null or r.status = :status) and "
                        + "(cast(:workflow as text) is null or w.name = :workflow or cast(w.id as text) = :workflow) "
                        + "and " + TenantSql.ownsWorkflow("w") + " "
                        + "order by r.created_at desc, r.id limit :size offset :offset")
                .param("status", status).param("workflow", workflow).param("size", size).param("offset", page * size)
                .param("tenant", CurrentTenant.orNull())
                .query((rs, i) -> summary(rs)).list();
    }

    /** While PostgreSQL is unreachable, a run Redis still holds answers from Redis; any other, 503 (the outage). */
    public RunViews.Detail get(UUID id) {
        Optional<RunViews.Detail> stored;
        try {
            stored = jdbc.sql("select r.*, w.name from runs r join workflows w on w.id = r.workflow_id "
                            + "where r.id = :id").param("id", id).query((rs, i) -> detail(rs, nodes(id))).optional()
                    .map(this::withCalls);
        } catch (DataAccessException e) {
            if (Outages.of(e).isEmpty()) {
                throw e;
            }
            return fromRedis(id).orElseThrow(() -> e);
        }
        return stored.or(() -> fromRedis(id)).orElseThrow(() -> new NotFoundException(
                "Expected a run with id " + id + ", but there is none"));
    }

    public List<RunViews.Node> nodes(UUID id) {
        return jdbc.sql("select * from node_executions where run_id = :id order by coalesce(ready_at, updated_at), "
                + "node_id, iteration").param("id", id).query((rs, i) -> new RunViews.Node(rs.getString("node_id"),
                rs.getInt("iteration"), rs.getString("status"), rs.getString("token_id"), rs.getString("worker"),
                tree(rs.getString("output")), errorOf(rs.getString("error")), instant(rs, "ready_at"),
                instant(rs, "started_at"), instant(rs, "ended_at"))).list();
    }

    boolean exists(UUID id) {
        return jdbc.sql("select count(*) from runs where id = :id").param("id", id).query(Long.class).single() > 0
                || meta.exists(id);
    }

    private RunViews.Detail detail(ResultSet rs, List<RunViews.Node> nodes) throws SQLException {
        String status = rs.getString("status");
        UUID id = rs.getObject("id", UUID.class);
        boolean live = "RUNNING".equals(status) || "PENDING".equals(status);
        Integer finalCounter = rs.getObject("final_counter", Integer.class);
        Long counter = live ? liveCounter(id) : finalCounter == null ? null : finalCounter.longValue();
        return new RunViews.Detail(id, rs.getObject("workflow_id", UUID.class), rs.getString("name"),
                rs.getInt("workflow_version"), status, counter, live, instant(rs, "created_at"), instant(rs, "ended_at"),
                rs.getString("error"), tree(rs.getString("inputs")), tree(rs.getString("outputs")), nodes, null,
                List.of());
    }

    /** Adds the run's calls: the run that called it, and the runs it called ({@code run_calls}). */
    private RunViews.Detail withCalls(RunViews.Detail run) {
        RunViews.Calls calls = calls(run.id());
        return calls.none() ? run : run.withCalls(calls.parent(), calls.children());
    }

    /** The run that called the run ({@code null} when none) and the runs it called, oldest first. */
    RunViews.Calls calls(UUID id) {
        String other = " c.parent_node, w.name, r.workflow_version, r.status from run_calls c "
                + "left join runs r on r.id = ";
        RunViews.Call parent = jdbc.sql("select c.parent_run_id," + other + "c.parent_run_id left join workflows w "
                        + "on w.id = r.workflow_id where c.child_run_id = :id").param("id", id)
                .query((rs, i) -> call(rs)).optional().orElse(null);
        List<RunViews.Call> children = jdbc.sql("select c.child_run_id," + other + "c.child_run_id left join "
                        + "workflows w on w.id = r.workflow_id where c.parent_run_id = :id order by c.called_at, "
                        + "c.child_run_id").param("id", id).query((rs, i) -> call(rs)).list();
        return new RunViews.Calls(parent, children);
    }

    private static RunViews.Call call(ResultSet rs) throws SQLException {
        return new RunViews.Call(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                rs.getObject(4, Integer.class), rs.getString(5));
    }

    private Optional<RunViews.Detail> fromRedis(UUID id) {
        return meta.fields(id).map(run -> new RunViews.Detail(id, run.workflowId(), null, run.version(),
                run.status().name(), liveCounter(id), run.status() == RunStatus.RUNNING, run.created(), null, null,
                tree(run.input()), null, List.of(), null, List.of()));
    }

    private Long liveCounter(UUID id) {
        String value = redis.commands().get(keys.run(id).counter());
        return value == null ? null : Long.valueOf(value);
    }

    private RunViews.Summary summary(ResultSet rs) throws SQLException {
        Instant created = instant(rs, "created_at");
        Instant ended = instant(rs, "ended_at");
        return new RunViews.Summary(rs.getObject("id", UUID.class), rs.getObject("workflow_id", UUID.class),
                rs.getString("name"), rs.getInt("workflow_version"), rs.getString("status"), created, ended,
                ended == null ? null : ended.toEpochMilli() - created.toEpochMilli());
    }

    private JsonNode errorOf(String text) {
        if (text == null) {
            return null;
        }
        JsonNode parsed = text.startsWith("{") ? tree(text) : null;
        return parsed != null ? parsed : json.getNodeFactory().stringNode(text);
    }

    JsonNode tree(String text) {
        return text == null ? null : json.readTree(text);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
