package io.tokenflow.approvals;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The approvals page: the newest approvals, read-only. */
@Controller
class ApprovalsController {

    private final ApprovalListQueries approvals;

    ApprovalsController(ApprovalListQueries approvals) {
        this.approvals = approvals;
    }

    @GetMapping("/approvals")
    String list(Model model) {
        model.addAttribute("approvals", approvals.newest());
        model.addAttribute("limit", ApprovalListQueries.LIMIT);
        return "approvals/approvals";
    }
}
