package io.tokenflow.waits;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Payloads;
import io.tokenflow.coordinator.RunPlan;
import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.engine.ir.IrCall;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.NodeWaiting;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.runs.StartedRun;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.RunTenants;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.InvalidWorkflowException;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.TooManyRequestsException;
import tools.jackson.databind.JsonNode;

/**
 * A workflow node's token: starts the child run and holds the token until the child ends. The child is started
 * through the same {@link StartRun} as the API's starts, with the node's input as its inputs and the idempotency key
 * {@code call:<token>}, so a task delivered again (a coordinator that died before acknowledging it, a run rebuilt
 * by the recovery) finds the child it started instead of starting another. Then the link is written
 * ({@link RunCalls}), the token held in the parent's waits with a time to look at the child again
 * ({@link #LOOK_AGAIN}), and the child looked at once: a child that ended before the token was held is seen here,
 * one that ends later is routed back by {@link ChildEndings}, and one whose ending that missed is seen when
 * {@link WaitDueTimes} looks again.
 *
 * <p>A child that cannot start fails the node, permanently: an unknown workflow, version or tag
 * ({@code child_not_found}), inputs its workflow refuses ({@code invalid_child_input}), or calls nested deeper than
 * {@link #MAX_DEPTH} ({@code child_depth}: a tag moved after the compiler refused cycles can still make one).
 */
@Component
class ChildRuns {

    /** How long a workflow node waits before it looks at its child's row again, should the child's ending be missed. */
    static final Duration LOOK_AGAIN = Duration.ofSeconds(30);
    /** How deeply calls may nest. */
    static final int MAX_DEPTH = 10;

    private final RunTenants runTenants;
    private final StartRun starting;
    private final RunCalls calls;
    private final HeldTokens held;
    private final Payloads payloads;
    private final RunTerminator terminator;
    private final Clock clock;

    ChildRuns(StartRun starting, RunCalls calls, HeldTokens held, Payloads payloads, RunTerminator terminator,
              RunTenants runTenants, Clock clock) {
        this.runTenants = runTenants;
        this.terminator = terminator;
        this.starting = starting;
        this.calls = calls;
        this.held = held;
        this.payloads = payloads;
        this.clock = clock;
    }

    /** Starts the node's child and holds its token; returns normally when the task may be acknowledged. */
    void call(RunPlan plan, IrNode node, String token, int iteration, Map<String, String> fields) {
        IrCall call = node.call();
        int depth = calls.depthOf(plan.runId()) + 1;
        if (depth > MAX_DEPTH) {
            fail(plan, node, token, "child_depth", "Expected calls nested at most " + MAX_DEPTH + " deep, but "
                    + "calling " + call.pin() + " would nest them " + depth + " deep");
            return;
        }
        String inputRef = fields.get("input_ref");
        JsonNode input = inputRef != null ? payloads.fromContext(Payloads.reference(inputRef))
                : payloads.parse(fields.get("input"));
        if (!input.isObject()) {
            fail(plan, node, token, "invalid_child_input", "Expected the input of workflow node '" + node.id()
                    + "' to be a JSON object (the inputs of " + call.pin() + "), but it is " + input.getNodeType());
            return;
        }
        StartedRun child;
        try {
            // the child is of the parent's tenant: its workflow is looked up there, and counts against its quota
            String tenant = runTenants.ofWorkflow(plan.workflow().workflowId()).orElse(CurrentTenant.DEFAULT);
            child = CurrentTenant.callAs(tenant, () -> starting.start(new StartRunCommand(call.workflow(),
                    call.tag(), call.version(), input, "call:" + token), "run:" + plan.runId()));
        } catch (TooManyRequestsException e) {
            fail(plan, node, token, "quota_exceeded", "Expected " + call.pin() + " to start, but: " + e.getMessage());
            return;
        } catch (NotFoundException e) {
            fail(plan, node, token, "child_not_found", "Expected workflow " + call.pin() + " to start, but: "
                    + e.getMessage());
            return;
        } catch (BadRequestException e) {
            fail(plan, node, token, "invalid_child_input", "Expected inputs " + call.pin() + " takes, but: "
                    + e.getMessage());
            return;
        } catch (InvalidWorkflowException e) {
            fail(plan, node, token, "child_not_found", "Expected " + call.pin() + " to compile, but: "
                    + e.getMessage());
            return;
        }
        calls.record(child.id(), plan.runId(), node.id(), token, depth, clock.instant());
        Wait wait = new Wait(node.id(), NodeWaiting.CHILD, iteration, null, null,
                clock.millis() + LOOK_AGAIN.toMillis(), null, null, child.id());
        String workflow = child.workflowVersion() == null ? call.pin()
                : child.workflowName() + " v" + child.workflowVersion();
        if (held.hold(plan, token, wait, NodeWaiting.childData(iteration, child.id(), workflow))) {
            lookAt(plan.runId(), token, wait);
        } else {
            // the parent ended (or dropped the token) while its child started: its ending may have looked for
            // children before this one was linked, so the child is cancelled here
            terminator.cancel(child.id(), "run " + plan.runId());
        }
    }

    /** Ends the wait when its child has ended; else looks again in {@link #LOOK_AGAIN}. */
    void lookAt(UUID run, String token, Wait wait) {
        Optional<ChildEnding> ending = calls.ending(wait.child());
        if (ending.isPresent()) {
            held.endCall(run, token, wait, ending.get());
        } else {
            held.lookAgain(run, token, clock.millis() + LOOK_AGAIN.toMillis());
        }
    }

    private void fail(RunPlan plan, IrNode node, String token, String code, String message) {
        held.fail(plan, node.id(), token, HeldTokens.WORKER_CALL, code, message);
    }
}
