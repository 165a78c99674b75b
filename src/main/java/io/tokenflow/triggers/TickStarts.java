package io.tokenflow.triggers;

import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.runs.StartedRun;

/**
 * Starts the run of a claimed cron tick and records the outcome on its {@code trigger_fires} row. The idempotency key
 * {@code trigger:<workflow>:<trigger>:<tick>} makes a start made again (a claim taken over) find the same run.
 */
@Component
class TickStarts {

    private static final Log log = LogFactory.getLog(TickStarts.class);

    private final StartRun starting;
    private final TriggerFires fires;

    TickStarts(StartRun starting, TriggerFires fires) {
        this.starting = starting;
        this.fires = fires;
    }

    /** @return whether the run started */
    boolean start(ActiveTriggers.WorkflowTriggers workflow, Trigger trigger, Instant tick) {
        String idempotencyKey = "trigger:" + workflow.workflowId() + ":" + trigger.id() + ":" + tick;
        try {
            StartedRun run = starting.start(new StartRunCommand(workflow.workflowId().toString(), null,
                    workflow.version(), trigger.inputs(), idempotencyKey), "trigger:" + trigger.id());
            fires.started(workflow.workflowId(), trigger.id(), tick, run.id());
            return true;
        } catch (RuntimeException e) {
            log.warn("Trigger '" + trigger.id() + "' of workflow '" + workflow.name() + "' could not start its run for "
                    + tick + ": " + e.getMessage());
            fires.failed(workflow.workflowId(), trigger.id(), tick, String.valueOf(e.getMessage()));
            return false;
        }
    }
}
