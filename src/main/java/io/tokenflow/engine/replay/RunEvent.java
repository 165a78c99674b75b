package io.tokenflow.engine.replay;

import java.time.Instant;

import tools.jackson.databind.JsonNode;

/**
 * One state change of a run, as the Lua steps append it to the run's shard events stream
 * ({@code docs/run-events.md}). Each type knows its own effect on a replay ({@link #applyTo(RunFold)}).
 */
public sealed interface RunEvent permits RunStarted, NodeExecutionEvent, JoinCompleted, RunEnding,
        RunPatched, RunResumed, RunRecovered, CompensationStarted, CompensationCompleted, CompensationFailed,
        EntryQuarantined, MapEvent {

    EventHeader header();

    RunEventType type();

    /** Applies this event to a replay in progress. */
    void applyTo(RunFold fold);

    default long seq() {
        return header().seq();
    }

    default Instant at() {
        return header().at();
    }

    default String node() {
        return header().node();
    }

    default String token() {
        return header().token();
    }

    default JsonNode data() {
        return header().data();
    }
}
