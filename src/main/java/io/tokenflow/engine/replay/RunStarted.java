package io.tokenflow.engine.replay;

import java.util.List;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

/** The run began on a pinned workflow version with its inputs; the counter is 0. */
public record RunStarted(EventHeader header, UUID workflowId, int workflowVersion, int irRevision, String tag,
                         JsonNode inputs, String submittedBy, String idempotencyKey, List<String> entryNodes)
        implements RunEvent {

    public RunStarted {
        entryNodes = List.copyOf(entryNodes);
    }

    static RunStarted read(EventHeader header, EventJson data) {
        String workflowId = data.requiredText("workflow_id");
        try {
            return new RunStarted(header, UUID.fromString(workflowId),
                    Math.toIntExact(data.requiredNumber("workflow_version")),
                    Math.toIntExact(data.number("ir_revision", 0)), data.text("tag"), data.json("inputs"),
                    data.text("submitted_by"), data.text("idempotency_key"), data.texts("entry_nodes"));
        } catch (IllegalArgumentException e) {
            if (e instanceof MalformedRunEventException malformed) {
                throw malformed;
            }
            throw new MalformedRunEventException("Expected workflow_id in " + data.where() + " to be a UUID, but found "
                    + workflowId);
        }
    }

    /** The data of a {@code run.started} event. */
    public static String data(UUID workflowId, int workflowVersion, int irRevision, String tag, JsonNode inputs,
                              String submittedBy, String idempotencyKey, List<String> entryNodes) {
        return new EventDataText().text("workflow_id", workflowId.toString())
                .number("workflow_version", workflowVersion).number("ir_revision", irRevision).text("tag", tag).json("inputs", inputs)
                .text("submitted_by", submittedBy).text("idempotency_key", idempotencyKey)
                .texts("entry_nodes", entryNodes).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.RUN_STARTED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.start(this);
    }
}
