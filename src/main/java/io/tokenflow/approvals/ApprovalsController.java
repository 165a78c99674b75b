package io.tokenflow.approvals;

import java.security.Principal;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.tokenflow.security.Caller;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.ForbiddenException;
import io.tokenflow.web.NotFoundException;

/**
 * The approvals inbox: a filtered, sorted list of pending approvals beside the selected one's detail (its form's
 * fields, the run, the time left), approve/reject with a comment, and the history of decided ones. What it shows
 * ({@link InboxModel}) is also what the live topic {@code approvals} pushes ({@link ApprovalsLiveView}).
 */
@Controller
class ApprovalsController {

    private static final Duration SHOW_DECISION_WITHIN = Duration.ofSeconds(3);

    private final InboxModel inbox;
    private final DecideApproval decide;
    private final EventLogCatchUp log;

    ApprovalsController(InboxModel inbox, DecideApproval decide, EventLogCatchUp log) {
        this.inbox = inbox;
        this.decide = decide;
        this.log = log;
    }

    @GetMapping("/approvals")
    String list(@RequestParam Map<String, String> params, Model model, Principal principal) {
        model.addAllAttributes(inbox.of(principal, params));
        return "approvals/approvals";
    }

    @PostMapping("/approvals/{id}/decide")
    String decide(@PathVariable UUID id, @RequestParam String decision,
                  @RequestParam(required = false) String comment, @RequestParam Map<String, String> params,
                  Caller caller, RedirectAttributes redirect) {
        try {
            ApprovalRecord decided = decide.decide(id, decision, comment, caller);
            // the page read after the redirect lists approvals from the log: let it show this decision
            log.await(Set.of(decided.runId()), SHOW_DECISION_WITHIN);
            redirect.addFlashAttribute("notice", (decided.decision().equals("approve") ? "Approved " : "Rejected ")
                    + (decided.title() == null ? decided.nodeId() : decided.title()));
        } catch (BadRequestException | ConflictException | ForbiddenException | NotFoundException e) {
            redirect.addFlashAttribute("failedId", id);
            redirect.addFlashAttribute("failure", e.getMessage());
        }
        backTo(params, redirect);
        return "redirect:/approvals";
    }

    /** The inbox filter the decision was made in stays in the URL after it. */
    private static void backTo(Map<String, String> params, RedirectAttributes redirect) {
        try {
            InboxFilter.of(params).params().forEach(redirect::addAttribute);
        } catch (IllegalArgumentException e) {
            // a filter the page could not have sent: the inbox opens unfiltered
        }
    }
}
