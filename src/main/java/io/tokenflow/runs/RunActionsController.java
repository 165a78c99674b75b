package io.tokenflow.runs;

import java.security.Principal;
import java.util.UUID;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.dlq.DlqActions;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;

/**
 * What an operator does to a run from its page: cancel it (the form shows while the run runs), retry it from its
 * failed node(s) (once it failed), compensate it (once it ended, when its workflow has compensators), or reprocess a
 * node's task parked in the dead-letter queue with its own input.
 */
@Controller
class RunActionsController {

    private final RunTerminator terminator;
    private final ResumeRun resuming;
    private final CompensateRun compensating;
    private final ParkedTasks parked;
    private final DlqActions deadLetters;

    RunActionsController(RunTerminator terminator, ResumeRun resuming, CompensateRun compensating,
                         ParkedTasks parked, DlqActions deadLetters) {
        this.terminator = terminator;
        this.resuming = resuming;
        this.compensating = compensating;
        this.parked = parked;
        this.deadLetters = deadLetters;
    }

    @PostMapping("/runs/{id}/nodes/{node}/reprocess")
    String reprocess(@PathVariable UUID id, @PathVariable String node, Principal principal,
                     RedirectAttributes redirect) {
        try {
            UUID entry = parked.open(id, node).orElseThrow(() -> new ConflictException("Expected node '" + node
                    + "' of run " + id + " to have a task in the dead-letter queue, but it has none"));
            deadLetters.reprocess(entry, null, principal.getName());
            redirect.addFlashAttribute("notice", "Reprocessed node " + node + " from the dead-letter queue");
        } catch (BadRequestException | ConflictException | NotFoundException e) {
            redirect.addFlashAttribute("failure", e.getMessage());
        }
        return "redirect:/runs/" + id;
    }

    @PostMapping("/runs/{id}/cancel")
    String cancel(@PathVariable UUID id, Principal principal, RedirectAttributes redirect) {
        if (terminator.cancel(id, principal.getName())) {
            redirect.addFlashAttribute("notice", "Cancelled the run");
        } else {
            redirect.addFlashAttribute("failure", "Expected a running run " + id + ", but it is not running");
        }
        return "redirect:/runs/" + id;
    }

    @PostMapping("/runs/{id}/retry")
    String retry(@PathVariable UUID id, Principal principal, RedirectAttributes redirect) {
        try {
            ResumeRun.Resumed resumed = resuming.resume(id, principal.getName());
            redirect.addFlashAttribute("notice", "Retrying the run: " + String.join(", ", resumed.nodes())
                    + (resumed.joinArrivals() > 0 ? " (and " + resumed.joinArrivals() + " join arrivals waiting)"
                    : ""));
        } catch (ConflictException e) {
            redirect.addFlashAttribute("failure", e.getMessage());
        }
        return "redirect:/runs/" + id;
    }

    @PostMapping("/runs/{id}/compensate")
    String compensate(@PathVariable UUID id, Principal principal, RedirectAttributes redirect) {
        try {
            CompensateRun.Compensating started = compensating.compensate(id, principal.getName());
            redirect.addFlashAttribute("notice", "Compensating " + String.join(", ", started.steps()));
        } catch (ConflictException e) {
            redirect.addFlashAttribute("failure", e.getMessage());
        }
        return "redirect:/runs/" + id;
    }
}
