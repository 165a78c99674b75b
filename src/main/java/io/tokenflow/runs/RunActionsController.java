package io.tokenflow.runs;

import java.security.Principal;
import java.util.UUID;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.tokenflow.coordinator.RunTerminator;

/** What an operator does to a run from its page: cancel it (the form shows while the run runs). */
@Controller
class RunActionsController {

    private final RunTerminator terminator;

    RunActionsController(RunTerminator terminator) {
        this.terminator = terminator;
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
}
