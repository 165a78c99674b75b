package io.tokenflow.runs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import io.tokenflow.coordinator.RunEventLog;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunReplay;
import io.tokenflow.engine.replay.RunState;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.web.NotFoundException;

/** A run's event log, page by page, and its state rebuilt from that log alone (time travel). */
@Service
public class RunHistory {

    private final JdbcClient jdbc;
    private final RunQueries runs;
    private final RunEventLog log;

    RunHistory(JdbcClient jdbc, RunQueries runs, RunEventLog log) {
        this.jdbc = jdbc;
        this.runs = runs;
        this.log = log;
    }

    public RunViews.EventPage events(UUID run, long afterSeq, int limit) {
        requireRun(run);
        List<RunViews.Event> events = jdbc.sql("select seq, event_type, node_id, token_id, occurred_at, data::text "
                        + "as data from event_log where run_id = :run and seq > :after order by seq limit :limit")
                .param("run", run).param("after", afterSeq).param("limit", limit + 1)
                .query((rs, i) -> new RunViews.Event(rs.getLong("seq"), rs.getString("event_type"),
                        rs.getString("node_id"), rs.getString("token_id"), RunQueries.instant(rs, "occurred_at"),
                        runs.tree(rs.getString("data"))))
                .list();
        boolean more = events.size() > limit;
        List<RunViews.Event> page = more ? events.subList(0, limit) : events;
        return new RunViews.EventPage(page, more ? page.get(page.size() - 1).seq() : null);
    }

    /** The state after event {@code upToSeq} (the whole log when null), from {@code event_log} alone. */
    public RunViews.Replay replay(UUID run, Long upToSeq) {
        requireRun(run);
        RunState state = RunReplay.replay(logged(run, upToSeq == null ? Long.MAX_VALUE : upToSeq));
        return view(run, state);
    }

    /** The run's events in {@code event_log} up to {@code upToSeq}, in seq order. */
    List<RunEvent> logged(UUID run, long upToSeq) {
        return log.events(run, upToSeq);
    }

    private RunViews.Replay view(UUID run, RunState state) {
        List<RunViews.Node> nodes = new ArrayList<>();
        for (NodeExecution execution : state.executions().values()) {
            nodes.add(new RunViews.Node(execution.key().node(), execution.key().iteration(), execution.status().name(),
                    execution.token(), execution.worker(), execution.output(), execution.error(), execution.readyAt(),
                    execution.startedAt(), execution.endedAt()));
        }
        List<RunViews.Step> path = state.path().stream()
                .map(step -> new RunViews.Step(step.seq(), step.from(), step.to(), step.token())).toList();
        Map<String, Map<String, String>> joins = new LinkedHashMap<>(state.pendingJoins());
        return new RunViews.Replay(run, state.lastSeq(), state.status().name(), state.counter(), state.inFlight(), nodes,
                joins, state.pendingApprovals(), path, state.outputs(), state.error(), state.compensation());
    }

    private void requireRun(UUID run) {
        if (!runs.exists(run)) {
            throw new NotFoundException("Expected a run with id " + run + ", but there is none");
        }
    }
}
