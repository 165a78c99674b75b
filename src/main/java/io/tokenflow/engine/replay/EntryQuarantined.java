package io.tokenflow.engine.replay;

import java.time.Instant;

import tools.jackson.databind.json.JsonMapper;

/**
 * Stands in the event log for an event that could not be stored: the events-stream entry holding it was set aside in
 * the quarantine (PostgreSQL refused it, or it could not be read), and the run was failed with the reason. Written by
 * the supervisor, never by a Lua step, one per seq the entry held, so the log goes on without a gap; a replay passes
 * over it (what the lost event did is lost with it, and the run's {@code run.failed} follows).
 *
 * @param quarantineId the quarantine row holding the entry's raw text and the reason
 * @param entryId      the events-stream entry it came from
 */
public record EntryQuarantined(EventHeader header, long quarantineId, String entryId) implements RunEvent {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static EntryQuarantined read(EventHeader header, EventJson data) {
        return new EntryQuarantined(header, data.requiredNumber("quarantine_id"), data.requiredText("entry_id"));
    }

    /** The stand-in for seq {@code seq} of an entry set aside at {@code at}. */
    public static EntryQuarantined of(long seq, Instant at, long quarantineId, String entryId) {
        String data = data(quarantineId, entryId);
        return new EntryQuarantined(new EventHeader(seq, at, null, null, JSON.readTree(data), data), quarantineId,
                entryId);
    }

    public static String data(long quarantineId, String entryId) {
        return new EventDataText().number("quarantine_id", quarantineId).text("entry_id", entryId).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.ENTRY_QUARANTINED;
    }

    @Override
    public void applyTo(RunFold fold) {
        // the lost event's effect is unknown; the run's failure follows
    }
}
