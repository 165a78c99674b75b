package io.tokenflow.engine.replay;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Someone resumed the failed run ({@code POST /api/v1/runs/{id}/retry}): it runs again under the same id, from the
 * state it failed in. The same step re-emits, as ordinary {@code token.emitted} events, the work the failure dropped
 * or failed at (each under a new token id, so it is executed again) and the join arrivals that were waiting, and asks
 * again for the approvals that were pending.
 *
 * @param resumes   the seq of the {@code run.failed} event the run resumes from
 * @param redone    old token id → the new token id re-emitted for it
 */
public record RunResumed(EventHeader header, String by, long resumes, Map<String, String> redone)
        implements RunEvent {

    public RunResumed {
        redone = Collections.unmodifiableMap(new LinkedHashMap<>(redone));
    }

    static RunResumed read(EventHeader header, EventJson data) {
        return new RunResumed(header, data.text("by"), data.requiredNumber("resumes"), data.textsByName("redone"));
    }

    /** The data of a {@code run.resumed} event. */
    public static String data(String by, long resumes, Map<String, String> redone) {
        return new EventDataText().text("by", by).number("resumes", resumes).texts("redone", redone).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.RUN_RESUMED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.resume(this);
    }
}
