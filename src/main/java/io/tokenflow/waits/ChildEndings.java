package io.tokenflow.waits;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.supervisor.RunEndingListener;

/**
 * What a run's ending does to the runs it is linked to by calls, once the event log holds it: a child's ending ends
 * the wait of the workflow node that started it (the node completes with the child's outputs, or fails), and a
 * parent's ending cancels its children that still run (as Temporal's default parent-close policy does), so that
 * cancelling or failing a run cancels the runs it called, all the way down.
 */
@Component
class ChildEndings implements RunEndingListener {

    private static final Log log = LogFactory.getLog(ChildEndings.class);

    private final RunCalls calls;
    private final HeldTokens held;
    private final RunTerminator terminator;

    ChildEndings(RunCalls calls, HeldTokens held, RunTerminator terminator) {
        this.calls = calls;
        this.held = held;
        this.terminator = terminator;
    }

    @Override
    public void ended(Map<UUID, RunStatus> endings) {
        for (RunCalls.Call call : calls.callsOf(endings.keySet())) {
            Optional<Wait> wait = held.find(call.parent(), call.token());
            Optional<ChildEnding> ending = wait.isEmpty() ? Optional.empty() : calls.ending(call.child());
            if (ending.isPresent() && call.child().equals(wait.get().child())) {
                held.endCall(call.parent(), call.token(), wait.get(), ending.get());
            }
        }
        for (RunCalls.Call call : calls.unendedCallsOf(endings.keySet())) {
            boolean cancelled = terminator.cancel(call.child(), "run " + call.parent());
            log.debug("Child run " + call.child() + " of ended run " + call.parent() + ": "
                    + (cancelled ? "cancelled" : "not running"));
        }
    }
}
