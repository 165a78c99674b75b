package io.tokenflow.approvals;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.live.LiveChange;
import io.tokenflow.live.LiveEntry;
import io.tokenflow.live.LiveSubscriber;
import io.tokenflow.live.LiveTemplates;
import io.tokenflow.live.LiveView;

/**
 * Topic {@code approvals}: the inbox's table, rendered again for the subscriber whenever an approval is requested,
 * escalated or decided in any run.
 */
@Component
class ApprovalsLiveView implements LiveView {

    static final String TOPIC = "approvals";

    private static final Duration CATCH_UP = Duration.ofSeconds(3);

    private final ApprovalsController page;
    private final LiveTemplates templates;
    private final EventLogCatchUp log;

    ApprovalsLiveView(ApprovalsController page, LiveTemplates templates, EventLogCatchUp log) {
        this.page = page;
        this.templates = templates;
        this.log = log;
    }

    @Override
    public boolean serves(String topic) {
        return TOPIC.equals(topic);
    }

    @Override
    public Collection<String> accept(LiveEntry entry) {
        return entry.has("approval.") ? List.of(TOPIC) : List.of();
    }

    @Override
    public void check(LiveSubscriber subscriber) {
        // every signed-in person has an inbox
    }

    /**
     * The inbox reads approvals rows, which follow the events a moment later: push once they are there, and push again
     * for the runs whose rows are still missing after {@link #CATCH_UP} (PostgreSQL lags), until they are there.
     */
    @Override
    public Set<UUID> beforePush(Set<UUID> runs) {
        return log.behind(runs, CATCH_UP);
    }

    @Override
    public String render(LiveSubscriber subscriber, LiveChange change) {
        return templates.render("approvals/approvals", List.of("approval-table"), page.inbox(subscriber.principal()));
    }
}
