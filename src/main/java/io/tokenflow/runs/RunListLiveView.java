package io.tokenflow.runs;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.live.LiveChange;
import io.tokenflow.live.LiveEntry;
import io.tokenflow.live.LiveSubscriber;
import io.tokenflow.live.LiveTemplates;
import io.tokenflow.live.LiveView;

/**
 * Topic {@code runs} (params {@code status}, {@code workflow}: the page's filters): the rows of runs that changed, or
 * the whole table when runs it does not show yet pass its filters (new runs). Every resync, each page's table is checked
 * against PostgreSQL for changes the tailers did not see (entries the supervisor persisted and deleted before this
 * instance read them): a shown run that has ended there, or a newer run that passes the filters. The table is drawn
 * again only when it would differ.
 */
@Component
class RunListLiveView implements LiveView {

    private static final String TOPIC = "runs";
    private static final String SHOWN = "shown";

    private final LiveRunRows rows;
    private final RunListQueries stored;
    private final LiveTemplates templates;

    RunListLiveView(LiveRunRows rows, RunListQueries stored, LiveTemplates templates) {
        this.rows = rows;
        this.stored = stored;
        this.templates = templates;
    }

    @Override
    public boolean serves(String topic) {
        return TOPIC.equals(topic);
    }

    @Override
    public Collection<String> accept(LiveEntry entry) {
        return List.of(TOPIC);
    }

    @Override
    public void check(LiveSubscriber subscriber) {
        String problem = filterOf(subscriber).problem();
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Each page compares its own table (filters differ): see {@link #render} with a change of no runs. */
    @Override
    public boolean missed(String topic) {
        return true;
    }

    @Override
    public String render(LiveSubscriber subscriber, LiveChange change) {
        RunFilter filter = filterOf(subscriber);
        Map<UUID, RunListQueries.RunRow> shown = shown(subscriber);
        if (!change.full() && change.runs().isEmpty()) {
            return missedChanges(filter, shown) ? table(filter, shown, Set.of(), true) : "";
        }
        List<RunListQueries.RunRow> changed = rows.rows(change.runs());
        boolean appeared = changed.stream().anyMatch(row -> !shown.containsKey(row.id())
                && filter.admits(row.status(), row.workflowName(), row.workflowId().toString()));
        if (change.full() || appeared) {
            return table(filter, shown, change.runs(), false);
        }
        List<RunListQueries.RunRow> update = changed.stream().filter(row -> shown.containsKey(row.id())).toList();
        update.forEach(row -> shown.replace(row.id(), row));
        return update.isEmpty() ? "" : templates.render("runs/runs", List.of("run-row"),
                Map.of("runs", update, "now", Instant.now()));
    }

    /**
     * The table as it is now, remembered as shown; empty instead when {@code onlyIfChanged} and it shows the same runs
     * in the same states as the page does.
     */
    private String table(RunFilter filter, Map<UUID, RunListQueries.RunRow> shown, Collection<UUID> recent,
                         boolean onlyIfChanged) {
        List<RunListQueries.RunRow> table = rows.newest(filter, recent);
        if (onlyIfChanged && table.stream().map(RunListLiveView::state).toList()
                .equals(shown.values().stream().map(RunListLiveView::state).toList())) {
            return "";
        }
        shown.clear();
        table.forEach(row -> shown.put(row.id(), row));
        return templates.render("runs/runs", List.of("run-table"), Map.of("runs", table,
                "limit", RunListQueries.LIMIT, "filter", filter, "now", Instant.now()));
    }

    /**
     * Whether PostgreSQL holds what the page does not show: a shown run that ended, or a run newer than the page's
     * oldest (any, while the table is not full) that passes the filters.
     */
    private boolean missedChanges(RunFilter filter, Map<UUID, RunListQueries.RunRow> shown) {
        List<UUID> running = shown.values().stream().filter(row -> !finished(row))
                .map(RunListQueries.RunRow::id).toList();
        if (stored.byIds(running).stream().anyMatch(RunListLiveView::finished)) {
            return true;
        }
        Instant oldest = shown.size() < RunListQueries.LIMIT ? null : shown.values().stream()
                .map(RunListQueries.RunRow::createdAt).min(Instant::compareTo).orElse(null);
        return stored.newest(filter).stream().anyMatch(row -> !shown.containsKey(row.id())
                && (oldest == null || row.createdAt().isAfter(oldest)));
    }

    private static boolean finished(RunListQueries.RunRow row) {
        return RunStatus.valueOf(row.status()).isFinished();
    }

    /** What the page shows of a row that can change: its status (the counter follows the status, or moves on). */
    private static List<Object> state(RunListQueries.RunRow row) {
        return List.of(row.id(), row.status());
    }

    @SuppressWarnings("unchecked")
    private static Map<UUID, RunListQueries.RunRow> shown(LiveSubscriber subscriber) {
        return (Map<UUID, RunListQueries.RunRow>) subscriber.state().computeIfAbsent(SHOWN,
                key -> new LinkedHashMap<UUID, RunListQueries.RunRow>());
    }

    private static RunFilter filterOf(LiveSubscriber subscriber) {
        return new RunFilter(subscriber.param("status"), subscriber.param("workflow"));
    }
}
