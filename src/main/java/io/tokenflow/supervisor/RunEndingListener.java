package io.tokenflow.supervisor;

import java.util.Map;
import java.util.UUID;

import io.tokenflow.engine.runs.RunStatus;

/**
 * Told of the runs each batch of the event log ended, once their endings are committed to PostgreSQL, by the
 * thread that wrote them. It is told after the batch is acknowledged, so a supervisor that dies in between does not
 * tell it: a listener that must not miss an ending also looks for it itself now and then (e.g. the workflow nodes
 * waiting for child runs, {@code waits.ChildRuns}). A failure is logged and does not stop the event log.
 */
public interface RunEndingListener {

    /** @param endings the runs the batch ended, with how they ended */
    void ended(Map<UUID, RunStatus> endings);
}
