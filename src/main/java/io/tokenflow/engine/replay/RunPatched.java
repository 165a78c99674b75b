package io.tokenflow.engine.replay;

/**
 * The running run switched to a new revision of its workflow (a JSON Patch applied by a person or an agent): data
 * {@code revision}, {@code patch}, {@code author}, {@code added_nodes}, {@code removed_nodes}. Routing after it uses
 * the new revision; tokens in flight are unaffected.
 */
public record RunPatched(EventHeader header, int revision, String author) implements RunEvent {

    static RunPatched read(EventHeader header, EventJson data) {
        return new RunPatched(header, Math.toIntExact(data.requiredNumber("revision")), data.text("author"));
    }

    @Override
    public RunEventType type() {
        return RunEventType.RUN_PATCHED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.patch(this);
    }
}
