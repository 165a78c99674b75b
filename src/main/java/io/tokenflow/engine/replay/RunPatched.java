package io.tokenflow.engine.replay;

import java.util.Collection;

import tools.jackson.databind.JsonNode;

/**
 * The running run switched to a new revision of its workflow (a JSON Patch applied by a person or an agent): data
 * {@code revision}, {@code patch}, {@code author}, {@code added_nodes}, {@code removed_nodes}. Routing after it uses
 * the new revision; tokens in flight are unaffected.
 */
public record RunPatched(EventHeader header, int revision, String author) implements RunEvent {

    static RunPatched read(EventHeader header, EventJson data) {
        return new RunPatched(header, Math.toIntExact(data.requiredNumber("revision")), data.text("author"));
    }

    /** The data of a {@code run.patched} event: the new revision, who patched, the patch and the nodes it changed. */
    public static String data(int revision, String author, JsonNode patch, Collection<String> addedNodes,
                              Collection<String> removedNodes) {
        return new EventDataText().number("revision", revision).text("author", author).json("patch", patch)
                .texts("added_nodes", addedNodes).texts("removed_nodes", removedNodes).end();
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
