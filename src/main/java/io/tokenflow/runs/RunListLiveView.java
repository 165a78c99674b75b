package io.tokenflow.runs;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.live.LiveChange;
import io.tokenflow.live.LiveEntry;
import io.tokenflow.live.LiveSubscriber;
import io.tokenflow.live.LiveTemplates;
import io.tokenflow.live.LiveView;

/**
 * Topic {@code runs} (params {@code status}, {@code workflow}: the page's filters): the rows of runs that changed, or
 * the whole table when runs it does not show yet pass its filters (new runs).
 */
@Component
class RunListLiveView implements LiveView {

    private static final String TOPIC = "runs";
    private static final String SHOWN = "shown";

    private final LiveRunRows rows;
    private final LiveTemplates templates;

    RunListLiveView(LiveRunRows rows, LiveTemplates templates) {
        this.rows = rows;
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

    @Override
    public String render(LiveSubscriber subscriber, LiveChange change) {
        RunFilter filter = filterOf(subscriber);
        Set<UUID> shown = shown(subscriber);
        List<RunListQueries.RunRow> changed = rows.rows(change.runs());
        boolean appeared = changed.stream().anyMatch(row -> !shown.contains(row.id())
                && filter.admits(row.status(), row.workflowName(), row.workflowId().toString()));
        if (change.full() || appeared) {
            List<RunListQueries.RunRow> table = rows.newest(filter, change.runs());
            shown.clear();
            table.forEach(row -> shown.add(row.id()));
            return templates.render("runs/runs", List.of("run-table"), Map.of("runs", table,
                    "limit", RunListQueries.LIMIT, "filter", filter, "now", Instant.now()));
        }
        List<RunListQueries.RunRow> update = changed.stream().filter(row -> shown.contains(row.id())).toList();
        return update.isEmpty() ? "" : templates.render("runs/runs", List.of("run-row"),
                Map.of("runs", update, "now", Instant.now()));
    }

    @SuppressWarnings("unchecked")
    private static Set<UUID> shown(LiveSubscriber subscriber) {
        return (Set<UUID>) subscriber.state().computeIfAbsent(SHOWN, key -> new HashSet<UUID>());
    }

    private static RunFilter filterOf(LiveSubscriber subscriber) {
        return new RunFilter(subscriber.param("status"), subscriber.param("workflow"));
    }
}
