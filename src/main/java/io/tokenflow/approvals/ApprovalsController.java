package io.tokenflow.approvals;

import java.security.Principal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.security.core.Authentication;
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
 * The approvals inbox: the pending approvals the signed-in person may decide (with the run's context and payload,
 * and the time left), approve/reject with a comment, and the history of decided ones. What it shows ({@link #inbox})
 * is also what the live topic {@code approvals} pushes ({@link ApprovalsLiveView}), so page and pushes cannot drift.
 */
@Controller
class ApprovalsController {

    private static final Duration SHOW_DECISION_WITHIN = Duration.ofSeconds(3);

    private final ApprovalQueries approvals;
    private final DecideApproval decide;
    private final EventLogCatchUp log;

    ApprovalsController(ApprovalQueries approvals, DecideApproval decide, EventLogCatchUp log) {
        this.approvals = approvals;
        this.decide = decide;
        this.log = log;
    }

    @GetMapping("/approvals")
    String list(Model model, Principal principal) {
        model.addAllAttributes(inbox(principal));
        return "approvals/approvals";
    }

    /** The model of the inbox for the signed-in person. */
    Map<String, Object> inbox(Principal principal) {
        Caller caller = Caller.of((Authentication) principal);
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("pending", approvals.pending(caller));
        model.put("decided", approvals.decided(caller));
        model.put("limit", ApprovalQueries.LIMIT);
        return model;
    }

    @PostMapping("/approvals/{id}/decide")
    String decide(@PathVariable UUID id, @RequestParam String decision,
                  @RequestParam(required = false) String comment, Caller caller, RedirectAttributes redirect) {
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
        return "redirect:/approvals";
    }
}
