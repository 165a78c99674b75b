package io.tokenflow.approvals;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.stereotype.Component;

import io.tokenflow.live.LiveChange;
import io.tokenflow.live.LiveEntry;
import io.tokenflow.live.LiveSubscriber;
import io.tokenflow.live.LiveTemplates;
import io.tokenflow.live.LiveView;

/**
 * Topic {@code approvals}: the inbox's list, details and history under the filter the page subscribed with
 * ({@code params} as in its URL), rendered again for the subscriber whenever an approval is requested,
 * escalated or decided in any run, and whenever the pending approvals changed in a way the tailers did not see (a
 * subscription, and every resync, compare a fingerprint of them with the one the last push was drawn after).
 */
@Component
class ApprovalsLiveView implements LiveView {

    static final String TOPIC = "approvals";

    private static final Duration CATCH_UP = Duration.ofSeconds(3);

    private final InboxModel inbox;
    private final LiveTemplates templates;
    private final EventLogCatchUp log;
    private final ApprovalQueries approvals;
    /** The pending approvals' fingerprint read before the newest push was drawn; null until the first subscription. */
    private final AtomicReference<String> drawnAfter = new AtomicReference<>();

    ApprovalsLiveView(InboxModel inbox, LiveTemplates templates, EventLogCatchUp log,
                      ApprovalQueries approvals) {
        this.inbox = inbox;
        this.templates = templates;
        this.log = log;
        this.approvals = approvals;
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
        InboxFilter.of(params(subscriber));
        // every signed-in person has an inbox; the page was drawn a moment ago, so what changes from here on is missed
        // unless the tailers see it
        drawnAfter.compareAndSet(null, approvals.pendingFingerprint());
    }

    @Override
    public boolean missed(String topic) {
        String now = approvals.pendingFingerprint();
        return !now.equals(drawnAfter.getAndSet(now));
    }

    /**
     * The inbox reads approvals rows, which follow the events a moment later: push once they are there, and push again
     * for the runs whose rows are still missing after {@link #CATCH_UP} (PostgreSQL lags), until they are there.
     */
    @Override
    public Set<UUID> beforePush(Set<UUID> runs) {
        Set<UUID> behind = log.behind(runs, CATCH_UP);
        if (behind.isEmpty()) {
            drawnAfter.set(approvals.pendingFingerprint());
        }
        return behind;
    }

    @Override
    public String render(LiveSubscriber subscriber, LiveChange change) {
        return templates.render("approvals/approvals", List.of("approval-table"),
                inbox.of(subscriber.principal(), params(subscriber)));
    }

    /** The inbox filter the page subscribed with (as in its URL). */
    private static Map<String, String> params(LiveSubscriber subscriber) {
        Map<String, String> params = new HashMap<>();
        for (String name : List.of("workflow", "mine", "overdue", "sort", "page")) {
            if (subscriber.param(name) != null) {
                params.put(name, subscriber.param(name));
            }
        }
        return params;
    }
}
