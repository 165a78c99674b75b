package io.tokenflow.engine.replay;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The event types of {@code docs/run-events.md}: wire name, record type and how to read one from JSON. */
public enum RunEventType {
    RUN_STARTED("run.started", RunStarted.class, RunStarted::read),
    TOKEN_EMITTED("token.emitted", TokenEmitted.class, TokenEmitted::read),
    JOIN_ARRIVED("join.arrived", JoinArrived.class, JoinArrived::read),
    JOIN_COMPLETED("join.completed", JoinCompleted.class, JoinCompleted::read),
    NODE_STARTED("node.started", NodeStarted.class, NodeStarted::read),
    NODE_WAITING("node.waiting", NodeWaiting.class, NodeWaiting::read),
    MAP_STARTED("map.started", MapStarted.class, MapStarted::read),
    MAP_ITEM_COMPLETED("map.item.completed", MapItemCompleted.class, MapItemCompleted::read),
    MAP_ITEM_FAILED("map.item.failed", MapItemFailed.class, MapItemFailed::read),
    MAP_ITEMS_DONE("map.items.done", MapItemsDone.class, MapItemsDone::read),
    NODE_COMPLETED("node.completed", NodeCompleted.class, NodeCompleted::read),
    NODE_FAILED("node.failed", NodeFailed.class, NodeFailed::read),
    NODE_RETRYING("node.retrying", NodeRetrying.class, NodeRetrying::read),
    NODE_PARKED("node.parked", NodeParked.class, NodeParked::read),
    NODE_REPROCESSED("node.reprocessed", NodeReprocessed.class, NodeReprocessed::read),
    NODE_DISCARDED("node.discarded", NodeDiscarded.class, NodeDiscarded::read),
    NODE_UNPARKED("node.unparked", NodeUnparked.class, NodeUnparked::read),
    APPROVAL_REQUESTED("approval.requested", ApprovalRequested.class, ApprovalRequested::read),
    APPROVAL_DECIDED("approval.decided", ApprovalDecided.class, ApprovalDecided::read),
    APPROVAL_ESCALATED("approval.escalated", ApprovalEscalated.class, ApprovalEscalated::read),
    RUN_PATCHED("run.patched", RunPatched.class, RunPatched::read),
    RUN_RESUMED("run.resumed", RunResumed.class, RunResumed::read),
    RUN_RECOVERED("run.recovered", RunRecovered.class, RunRecovered::read),
    COMPENSATION_STARTED("compensation.started", CompensationStarted.class, CompensationStarted::read),
    COMPENSATION_COMPLETED("compensation.completed", CompensationCompleted.class, CompensationCompleted::read),
    COMPENSATION_FAILED("compensation.failed", CompensationFailed.class, CompensationFailed::read),
    ENTRY_QUARANTINED("entry.quarantined", EntryQuarantined.class, EntryQuarantined::read),
    RUN_COMPLETED("run.completed", RunCompleted.class, RunCompleted::read),
    RUN_FAILED("run.failed", RunFailed.class, RunFailed::read),
    RUN_CANCELLED("run.cancelled", RunCancelled.class, RunCancelled::read);

    private static final Map<String, RunEventType> BY_WIRE_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(RunEventType::wireName, Function.identity()));

    private final String wireName;
    private final Class<? extends RunEvent> recordType;
    private final BiFunction<EventHeader, EventJson, RunEvent> reader;

    RunEventType(String wireName, Class<? extends RunEvent> recordType,
                 BiFunction<EventHeader, EventJson, RunEvent> reader) {
        this.wireName = wireName;
        this.recordType = recordType;
        this.reader = reader;
    }

    public String wireName() {
        return wireName;
    }

    public Class<? extends RunEvent> recordType() {
        return recordType;
    }

    /** True for the events that end a run. */
    public boolean endsRun() {
        return RunEnding.class.isAssignableFrom(recordType);
    }

    /** True for the events after which a run's Redis state may go: its ending, and the end of its compensation. */
    public boolean releasesRunState() {
        return endsRun() || this == COMPENSATION_COMPLETED || this == COMPENSATION_FAILED;
    }

    RunEvent read(EventHeader header, EventJson data) {
        return reader.apply(header, data);
    }

    public static RunEventType of(String wireName) {
        RunEventType type = wireName == null ? null : BY_WIRE_NAME.get(wireName);
        if (type == null) {
            throw new MalformedRunEventException("Expected a run event type in " + wireNames() + ", but found '"
                    + wireName + "'");
        }
        return type;
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(RunEventType::wireName).toList();
    }
}
