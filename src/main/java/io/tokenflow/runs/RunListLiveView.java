package io.tokenflow.runs;

import java.time.Instant;
import java.util.Arrays;
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
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.PageLinks;

/**
 * Topic {@code runs} (params {@code status}, {@code workflow}, {@code since}, {@code page}: the page's filters and
 * page): the rows of shown runs that changed, or, on the first page, the whole table when runs it does not show yet
 * pass its filters (new runs). Every resync, each page's table is checked against PostgreSQL for changes the tailers
 * did not see (entries the supervisor persisted and deleted before this instance read them): a shown run that has
 * ended there, or a newer run that passes the filters. The table is drawn again only when it would differ.
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
        pageOf(subscriber);
    }

    /** Each page compares its own table (filters differ): see {@link #render} with a change of no runs. */
    @Override
    public boolean missed(String topic) {
        return true;
    }

    @Override
    public String render(LiveSubscriber subscriber, LiveChange change) {
        RunFilter filter = filterOf(subscriber);
        int page = pageOf(subscriber);
        Map<UUID, RunListQueries.RunRow> shown = shown(subscriber);
        if (!change.full() && change.runs().isEmpty()) {
            return missedChanges(filter, page, shown) ? table(filter, page, shown, Set.of(), true) : "";
        }
        boolean appeared = page == 1 && rows.stored(change.runs()).stream()
                .anyMatch(row -> !shown.containsKey(row.id()) && filter.admits(row));
        if (change.full() || appeared) {
            return table(filter, page, shown, change.runs(), false);
        }
        List<RunListQueries.RunRow> update = rows.rows(change.runs().stream().filter(shown::containsKey).toList());
        update.forEach(row -> shown.replace(row.id(), row));
        return update.isEmpty() ? "" : templates.render("runs/runs", List.of("run-row"),
                Map.of("runs", update, "now", Instant.now()));
    }

    /**
     * The table as it is now, remembered as shown; empty instead when {@code onlyIfChanged} and it shows the same runs
     * in the same states as the page does.
     */
    private String table(RunFilter filter, int page, Map<UUID, RunListQueries.RunRow> shown, Collection<UUID> recent,
                         boolean onlyIfChanged) {
        LiveRunRows.Table table = rows.page(filter, page, recent);
        if (onlyIfChanged && table.rows().stream().map(RunListLiveView::state).toList()
                .equals(shown.values().stream().map(RunListLiveView::state).toList())) {
            return "";
        }
        shown.clear();
        table.rows().forEach(row -> shown.put(row.id(), row));
        return templates.render("runs/runs", List.of("run-table"), Map.of("runs", table.rows(),
                "pager", RunsController.pager(filter, page, table), "filter", filter, "now", Instant.now()));
    }

    /**
     * Whether PostgreSQL holds what the page does not show: a shown run that ended, or, on the first page, a run
     * newer than the page's oldest (any, while the page is not full) that passes the filters.
     */
    private boolean missedChanges(RunFilter filter, int page, Map<UUID, RunListQueries.RunRow> shown) {
        List<UUID> running = shown.values().stream().filter(row -> !finished(row))
                .map(RunListQueries.RunRow::id).toList();
        if (stored.byIds(running).stream().anyMatch(RunListLiveView::finished)) {
            return true;
        }
        if (page > 1) {
            return false;
        }
        Instant oldest = shown.size() < RunListQueries.PAGE_SIZE ? null : shown.values().stream()
                .map(RunListQueries.RunRow::createdAt).min(Instant::compareTo).orElse(null);
        return stored.page(filter, 0).stream().anyMatch(row -> !shown.containsKey(row.id())
                && (oldest == null || row.createdAt().isAfter(oldest)));
    }

    private static boolean finished(RunListQueries.RunRow row) {
        return RunStatus.valueOf(row.status()).isFinished();
    }

    /** What the page shows of a row that can change: status, what it waits for and its end (the counter follows). */
    private static List<Object> state(RunListQueries.RunRow row) {
        return Arrays.asList(row.id(), row.status(), row.waiting(), row.endedAt());
    }

    @SuppressWarnings("unchecked")
    private static Map<UUID, RunListQueries.RunRow> shown(LiveSubscriber subscriber) {
        return (Map<UUID, RunListQueries.RunRow>) subscriber.state().computeIfAbsent(SHOWN,
                key -> new LinkedHashMap<UUID, RunListQueries.RunRow>());
    }

    private static RunFilter filterOf(LiveSubscriber subscriber) {
        return new RunFilter(subscriber.param("status"), subscriber.param("workflow"), subscriber.param("since"));
    }

    private static int pageOf(LiveSubscriber subscriber) {
        try {
            return PageLinks.number(subscriber.param("page"));
        } catch (BadRequestException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }
}
