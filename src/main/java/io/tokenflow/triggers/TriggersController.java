package io.tokenflow.triggers;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * The triggers table of the workflow page, loaded into it by htmx (the page belongs to the designer, which does not
 * know triggers); without htmx the URL leads to the page's section.
 */
@Controller
class TriggersController {

    private final TriggerViews views;

    TriggersController(TriggerViews views) {
        this.views = views;
    }

    @GetMapping(path = "/workflows/{workflow}/triggers", headers = "HX-Request")
    String table(@PathVariable String workflow, Model model) {
        ActiveTriggers.WorkflowTriggers found = views.workflow(workflow);
        model.addAttribute("workflowId", found.workflowId());
        model.addAttribute("version", found.version());
        model.addAttribute("triggers", views.list(found,
                ServletUriComponentsBuilder.fromCurrentContextPath().toUriString()));
        return "triggers/triggers :: triggers";
    }

    @GetMapping("/workflows/{workflow}/triggers")
    String page(@PathVariable String workflow) {
        return "redirect:/workflows/" + views.workflow(workflow).workflowId() + "#triggers";
    }
}
