package io.tokenflow.engine.replay;

import java.util.List;

/**
 * The running run's Redis state was lost (Redis restarted without its append-only file, was flushed or failed over)
 * and was rebuilt from its event log ({@link RecoveryPoint}), automatically or on demand
 * ({@code POST /api/v1/runs/{id}/recover}). Nothing about the run changes: the tasks in flight at {@code recovers}
 * were sent again under their own token ids ({@code resent}), join arrivals, pending approvals and parked tasks wait
 * as they did.
 *
 * @param by       who recovered it: a user name, or {@code system}
 * @param recovers the seq of the last logged event: what the run was rebuilt from
 * @param reason   why: what was found of the run in Redis
 * @param resent   the token ids sent to their workers again
 */
public record RunRecovered(EventHeader header, String by, long recovers, String reason, List<String> resent)
        implements RunEvent {

    public RunRecovered {
        resent = List.copyOf(resent);
    }

    static RunRecovered read(EventHeader header, EventJson data) {
        return new RunRecovered(header, data.text("by"), data.requiredNumber("recovers"), data.text("reason"),
                data.texts("resent"));
    }

    /** The data of a {@code run.recovered} event. */
    public static String data(String by, long recovers, String reason, List<String> resent) {
        return new EventDataText().text("by", by).number("recovers", recovers).text("reason", reason)
                .texts("resent", resent).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.RUN_RECOVERED;
    }

    @Override
    public void applyTo(RunFold fold) {
        // the run goes on as its earlier events left it
    }
}
