package io.tokenflow.approvals;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.PendingApprovals;

/**
 * Applies the escalation policy of approvals whose time ran out: {@code auto_approve} and {@code auto_reject} decide
 * as {@code system}; {@code escalate} hands the approval to the node's {@code escalate_to} group (which then has no
 * timeout); no policy rejects. Any instance may run this: the Lua steps decide or escalate each approval once.
 */
@Component
class ApprovalTimeouts implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(ApprovalTimeouts.class);
    private static final int BATCH = 100;

    private final ApprovalQueries approvals;
    private final PendingApprovals pending;
    private final ApprovalSettings settings;
    private final Clock clock;
    private ScheduledExecutorService timer;

    ApprovalTimeouts(ApprovalQueries approvals, PendingApprovals pending, ApprovalSettings settings, Clock clock) {
        this.approvals = approvals;
        this.pending = pending;
        this.settings = settings;
        this.clock = clock;
    }

    /** Applies the policy of every timed-out approval once; returns how many were handled. */
    int applyDue() {
        List<ApprovalRecord> due = approvals.timedOut(clock.instant(), BATCH);
        int handled = 0;
        for (ApprovalRecord approval : due) {
            var live = pending.find(approval.runId(), approval.id());
            if (live.isEmpty() || live.get().timeoutAt() == null || live.get().timeoutAt() > clock.millis()) {
                continue;
            }
            String policy = live.get().escalationPolicy() == null ? "auto_reject" : live.get().escalationPolicy();
            boolean done = switch (policy) {
                case "auto_approve", "auto_approve_after_timeout" -> decide(live.get(), true);
                case "escalate" -> !live.get().escalateTo().isEmpty()
                        ? pending.escalate(live.get(), live.get().escalateTo(), null) : decide(live.get(), false);
                default -> decide(live.get(), false);
            };
            handled += done ? 1 : 0;
        }
        return handled;
    }

    private boolean decide(PendingApprovals.Pending approval, boolean approve) {
        return pending.decide(approval, new PendingApprovals.Decision(approve, "system",
                "No decision before the timeout", true)) == PendingApprovals.DecisionOutcome.DECIDED;
    }

    @Override
    public void start() {
        if (settings.timeoutCheckInterval().isZero()) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "approval-timeouts");
            thread.setDaemon(true);
            return thread;
        });
        long every = settings.timeoutCheckInterval().toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                applyDue();
            } catch (RuntimeException e) {
                log.warn("Applying approval timeouts failed; retrying in " + every + " ms", e);
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
